package quakeworld

import (
	"testing"

	"github.com/gameserver-exporter/gameserver_exporter/protocols/internal/idtech/idtechtest"
)

func benchDecode(b *testing.B, file string) {
	idtechtest.BenchDecode(b, file, func(data []byte) error {
		r, err := decode(data)
		if err == nil {
			r.result(true, true)
		}
		return err
	})
}

func BenchmarkDecodeStatus(b *testing.B) { benchDecode(b, "testdata/status_opt23_spectators.bin") }

func BenchmarkDecodeStatusManyLines(b *testing.B) {
	benchDecode(b, "testdata/status_too_many_lines.bin")
}

// BenchmarkQuery is a full status exchange over loopback.
func BenchmarkQuery(b *testing.B) {
	idtechtest.BenchQuery(b, Protocol, fakeServer(b, statusReply(`3 12 5 48 "Player" "base" 4 4`, `7 -3 0 999 "newbie" "" 13 13`)))
}
