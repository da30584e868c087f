package quakeworld

import (
	"context"
	"os"
	"testing"
	"time"

	"github.com/gameserver-exporter/gameserver_exporter/protocols"
	"github.com/gameserver-exporter/gameserver_exporter/protocols/wire"
)

func benchDecode(b *testing.B, file string) {
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
		r.result(true, true)
	}
}

func BenchmarkDecodeStatus(b *testing.B) { benchDecode(b, "testdata/status_opt23_spectators.bin") }

func BenchmarkDecodeStatusManyLines(b *testing.B) {
	benchDecode(b, "testdata/status_too_many_lines.bin")
}

// BenchmarkQuery is a full status exchange over loopback.
func BenchmarkQuery(b *testing.B) {
	addr := fakeServer(b, statusReply(`3 12 5 48 "Player" "base" 4 4`, `7 -3 0 999 "newbie" "" 13 13`))
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
