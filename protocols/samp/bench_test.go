package samp

import (
	"testing"
	"time"

	"github.com/gameserver-exporter/gameserver_exporter/protocols"
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
	addr := sampServer(b).start(b)
	q := newQ(b, protocols.Settings{Players: true, Rules: true}, "", "")
	b.ReportAllocs()
	for b.Loop() {
		if _, err := q.Query(prototest.Context(b, 2*time.Second), protocols.At(addr), nil); err != nil {
			b.Fatal(err)
		}
	}
}
