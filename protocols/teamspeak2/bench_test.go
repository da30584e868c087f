package teamspeak2

import (
	"testing"
	"time"

	"github.com/gameserver-exporter/gameserver_exporter/protocols"
	"github.com/gameserver-exporter/gameserver_exporter/protocols/prototest"
	"github.com/gameserver-exporter/gameserver_exporter/protocols/wire"
)

func BenchmarkDecodePlayers(b *testing.B) {
	lines := reply(b, "pl_default.txt")
	prototest.DecodeBench(b, nil, func([]byte) error {
		_, err := decodePlayers(lines, wire.UTF8)
		return err
	})
}

func BenchmarkQuery(b *testing.B) {
	addr := newFake(b).start(b)
	for b.Loop() {
		if _, _, err := probe(b, addr, voice, protocols.Settings{Players: true}, 2*time.Second); err != nil {
			b.Fatal(err)
		}
	}
}
