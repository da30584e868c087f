package unreal2

import (
	"fmt"
	"testing"

	"github.com/gameserver-exporter/gameserver_exporter/protocols"
	"github.com/gameserver-exporter/gameserver_exporter/protocols/prototest"
)

func BenchmarkDecodeInfo(b *testing.B) {
	prototest.DecodeBench(b, prototest.VecFile(b, "info_ut2004"), func(reply []byte) error {
		v, body, err := splitReply(reply, typeInfo)
		if err == nil {
			_, err = decodeInfo(v, body)
		}
		return err
	})
}

// BenchmarkDecodePlayers decodes a full 32-player list in one datagram.
func BenchmarkDecodePlayers(b *testing.B) {
	prototest.DecodeBench(b, playerReplies(32, 32)[0], func(reply []byte) error {
		v, body, _ := splitReply(reply, typePlayers)
		if ps, err := decodePlayers(nil, v, body); err != nil || len(ps) != 32 {
			return fmt.Errorf("%d players: %v", len(ps), err)
		}
		return nil
	})
}

// BenchmarkQuery is info and a 16-player list in two datagrams over loopback; the
// players phase ends at the count, so no quiet period is waited.
func BenchmarkQuery(b *testing.B) {
	f := &fake{info: [][]byte{infoReply("Bench", "DM-Rankin", 16, 32)}, players: playerReplies(16, 8)}
	prototest.QueryBench(b, Protocol, protocols.Settings{Players: true}, f.start(b))
}
