package palworld

import (
	"testing"

	"github.com/gameserver-exporter/gameserver_exporter/protocols"
	"github.com/gameserver-exporter/gameserver_exporter/protocols/prototest"
)

func BenchmarkDecode(b *testing.B) {
	in, m, pl := prototest.File(b, "info.json"), prototest.File(b, "metrics.json"), prototest.File(b, "players.json")
	b.ReportAllocs()
	for b.Loop() {
		i, err := decodeInfo(in)
		if err != nil {
			b.Fatal(err)
		}
		res := i.result()
		mm, err := decodeMetrics(m)
		if err != nil {
			b.Fatal(err)
		}
		mm.fill(res)
		p, err := decodePlayers(pl)
		if err != nil {
			b.Fatal(err)
		}
		p.fill(res)
	}
}

func BenchmarkRedactPlayers(b *testing.B) {
	pl := prototest.File(b, "players.json")
	b.ReportAllocs()
	for b.Loop() {
		redactPlayers(pl)
	}
}

func BenchmarkQuery(b *testing.B) {
	addr := fakePalworld(b, nil)
	prototest.QueryBench(b, Protocol, protocols.Settings{Players: true, Options: withPassword(testPassword)}, addr)
}
