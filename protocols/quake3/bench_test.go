package quake3

import (
	"testing"

	"github.com/gameserver-exporter/gameserver_exporter/protocols/internal/idtech/idtechtest"
)

func benchDecode(b *testing.B, file string, players bool) {
	idtechtest.BenchDecode(b, file, func(data []byte) error {
		r, err := decode(data)
		if err == nil {
			r.result(players, players)
		}
		return err
	})
}

func BenchmarkDecodeStatus(b *testing.B) {
	benchDecode(b, "testdata/status_latin1_colours.bin", true)
}

func BenchmarkDecodeStatusManyLines(b *testing.B) {
	benchDecode(b, "testdata/status_too_many_lines.bin", true)
}

func BenchmarkDecodeInfo(b *testing.B) {
	benchDecode(b, "testdata/info_ioq3.bin", false)
}

// BenchmarkQuery is a full getstatus exchange over loopback.
func BenchmarkQuery(b *testing.B) {
	idtechtest.BenchQuery(b, Protocol, echoServer(b, `12 48 "^1Play^7er"`, `-3 0 "Sarge"`, `0 999 ""`))
}
