package unreal2

import (
	"testing"
	"time"

	"github.com/gameserver-exporter/gameserver_exporter/protocols"
	"github.com/gameserver-exporter/gameserver_exporter/protocols/prototest"
	"github.com/gameserver-exporter/gameserver_exporter/protocols/wire"
)

func BenchmarkDecodeInfo(b *testing.B) {
	reply := prototest.VecFile(b, "info_ut2004")
	b.SetBytes(int64(len(reply)))
	b.ReportAllocs()
	for b.Loop() {
		v, body, err := splitReply(reply, typeInfo)
		if err != nil {
			b.Fatal(err)
		}
		if _, err := decodeInfo(v, body); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkDecodePlayers decodes a full 32-player list in one datagram.
func BenchmarkDecodePlayers(b *testing.B) {
	reply := playerReplies(32, 32)[0]
	b.SetBytes(int64(len(reply)))
	b.ReportAllocs()
	for b.Loop() {
		v, body, _ := splitReply(reply, typePlayers)
		if ps, err := decodePlayers(nil, v, body); err != nil || len(ps) != 32 {
			b.Fatal(err)
		}
	}
}

// BenchmarkQuery is info and a 16-player list in two datagrams over loopback; the
// players phase ends at the count, so no quiet period is waited.
func BenchmarkQuery(b *testing.B) {
	f := &fake{info: [][]byte{infoReply("Bench", "DM-Rankin", 16, 32)}, players: playerReplies(16, 8)}
	addr := f.start(b)
	q, _ := newQuerier(protocols.Settings{Players: true})
	ctx := prototest.Context(b, time.Minute)
	tr := wire.NewTrace()
	b.ReportAllocs()
	for b.Loop() {
		tr.Reset()
		if _, err := q.Query(ctx, protocols.At(addr), tr); err != nil {
			b.Fatal(err)
		}
	}
}
