package samp

import (
	"testing"

	"github.com/gameserver-exporter/gameserver_exporter/protocols/prototest"
)

func BenchmarkDecodeInfo(b *testing.B) {
	prototest.DecodeBench(b, vec(b, "info_samp"), func(v []byte) error {
		_, err := decodeInfo(v, false)
		return err
	})
}

func BenchmarkDecodePlayers(b *testing.B) {
	prototest.DecodeBench(b, vec(b, "players_d"), func(v []byte) error {
		_, err := decodePlayers(v, opDetailed, false)
		return err
	})
}

func BenchmarkQuery(b *testing.B) {
	prototest.QueryBench(b, Protocol, all, sampServer(b).start(b))
}
