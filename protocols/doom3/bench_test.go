package doom3

import (
	"context"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/gameserver-exporter/gameserver_exporter/protocols"
	"github.com/gameserver-exporter/gameserver_exporter/protocols/prototest"
)

func BenchmarkDecode(b *testing.B) {
	for _, name := range []string{"doom3_players", "quake4_players", "etqw_infoex"} {
		buf := vector(b, name)
		b.Run(name, func(b *testing.B) {
			b.ReportAllocs()
			b.SetBytes(int64(len(buf)))
			for b.Loop() {
				rep, err := decode(buf)
				if err != nil {
					b.Fatal(err)
				}
				_ = rep.Result(true, false)
			}
		})
	}
}

// BenchmarkDecodeFixture decodes the largest real capture (16 ET:QW players with
// statistics), when ../shared is present.
func BenchmarkDecodeFixture(b *testing.B) {
	buf, err := os.ReadFile(filepath.Join(prototest.FixtureDir(b, "doom3"), "etqw_infoexresponse_players.bin"))
	if err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	b.SetBytes(int64(len(buf)))
	for b.Loop() {
		rep, err := decode(buf)
		if err != nil {
			b.Fatal(err)
		}
		_ = rep.Result(true, false)
	}
}

func BenchmarkQuery(b *testing.B) {
	_, addr := newServer(b, vector(b, "doom3_players"), nil)
	q, err := newQuerier(protocols.Settings{Players: true})
	if err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	for b.Loop() {
		ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
		_, err := q.Query(ctx, protocols.At(addr), nil)
		cancel()
		if err != nil {
			b.Fatal(err)
		}
	}
}
