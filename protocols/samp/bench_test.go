package samp

import (
	"testing"
	"time"

	"github.com/gameserver-exporter/gameserver_exporter/protocols"
	"github.com/gameserver-exporter/gameserver_exporter/protocols/prototest"
)

func BenchmarkDecodeInfo(b *testing.B) {
	v := vec(b, "info_samp")
	b.ReportAllocs()
	for b.Loop() {
		if _, err := decodeInfo(v, false); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkDecodePlayers(b *testing.B) {
	v := vec(b, "players_d")
	b.ReportAllocs()
	for b.Loop() {
		if _, err := decodePlayers(v, opDetailed, false); err != nil {
			b.Fatal(err)
		}
	}
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
