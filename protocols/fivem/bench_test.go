package fivem

import (
	"testing"

	"github.com/gameserver-exporter/gameserver_exporter/protocols"
	"github.com/gameserver-exporter/gameserver_exporter/protocols/prototest"
)

func BenchmarkDecodeInfo(b *testing.B) {
	prototest.DecodeBench(b, prototest.HexFile(b, "info_fxserver.hex"), func(data []byte) error {
		kvs, err := decodeInfo(data)
		infoResult(kvs)
		return err
	})
}

func BenchmarkDecodePlayers(b *testing.B) {
	prototest.DecodeBench(b, prototest.File(b, "players.json"), func(data []byte) error {
		_, _, err := decodePlayers(data)
		return err
	})
}

func BenchmarkDecodeServerInfo(b *testing.B) {
	prototest.DecodeBench(b, prototest.File(b, "info.json"), func(data []byte) error {
		_, _, err := decodeServerInfo(data)
		return err
	})
}

// BenchmarkQuery is a getinfo exchange plus players.json and info.json over loopback.
func BenchmarkQuery(b *testing.B) {
	addr := fxServer(b, answer, fxMux(jsonHandler(playersBody), jsonHandler(infoBody)))
	prototest.QueryBench(b, Protocol, protocols.Settings{Players: true, Rules: true}, addr)
}
