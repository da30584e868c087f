package palworld

import (
	"errors"
	"testing"

	"github.com/gameserver-exporter/gameserver_exporter/protocols"
	"github.com/gameserver-exporter/gameserver_exporter/protocols/prototest"
)

func BenchmarkDecode(b *testing.B) {
	in, m, pl := prototest.File(b, "info.json"), prototest.File(b, "metrics.json"), prototest.File(b, "players.json")
	prototest.DecodeBench(b, nil, func([]byte) error {
		i, err1 := decodeInfo(in)
		mm, err2 := decodeMetrics(m)
		p, err3 := decodePlayers(pl)
		if err := errors.Join(err1, err2, err3); err != nil {
			return err
		}
		res := i.result()
		mm.fill(res)
		p.fill(res)
		return nil
	})
}

func BenchmarkRedactPlayers(b *testing.B) {
	prototest.DecodeBench(b, prototest.File(b, "players.json"), func(pl []byte) error { redactPlayers(pl); return nil })
}

func BenchmarkQuery(b *testing.B) {
	addr := fakePalworld(b, nil)
	prototest.QueryBench(b, Protocol, protocols.Settings{Players: true, Options: withPassword(testPassword)}, addr)
}
