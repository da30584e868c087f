package teamspeak2

import (
	"testing"

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
	port := newFake(b).start(b).Port()
	prototest.QueryBench(b, Protocol, protocols.Settings{Players: true, Options: func(v any) error { v.(*Options).QueryPort = int(port); return nil }}, voice)
}
