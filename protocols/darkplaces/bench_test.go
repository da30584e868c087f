package darkplaces

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

func BenchmarkDecodeStatus(b *testing.B) { benchDecode(b, "testdata/status_xonotic_teams.bin") }

func BenchmarkDecodeStatusManyLines(b *testing.B) {
	benchDecode(b, "testdata/status_too_many_lines.bin")
}

// BenchmarkQuery is a full getstatus exchange over loopback (the fake has no
// flood block).
func BenchmarkQuery(b *testing.B) {
	addr := echoServer(b, `12 48 1 "^1Play^7er"`, `-3 0 2 "[BOT]x"`, `0 999 0 ""`)
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
