package quake3

import (
	"context"
	"os"
	"testing"
	"time"

	"github.com/gameserver-exporter/gameserver_exporter/protocols"
	"github.com/gameserver-exporter/gameserver_exporter/protocols/wire"
)

func benchDecode(b *testing.B, file string, players bool) {
	data, err := os.ReadFile(file)
	if err != nil {
		b.Fatal(err)
	}
	b.SetBytes(int64(len(data)))
	b.ReportAllocs()
	for b.Loop() {
		r, err := decode(data)
		if err != nil {
			b.Fatal(err)
		}
		r.result(players, players)
	}
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
	addr := echoServer(b, `12 48 "^1Play^7er"`, `-3 0 "Sarge"`, `0 999 ""`)
	q := newQuerier(b, protocols.Settings{Players: true, Rules: true})
	tr := wire.NewTrace()
	b.ReportAllocs()
	for b.Loop() {
		tr.Reset()
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		_, err := q.Query(ctx, protocols.At(addr), tr)
		cancel()
		if err != nil {
			b.Fatal(err)
		}
	}
}
