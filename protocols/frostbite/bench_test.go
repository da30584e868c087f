package frostbite

import (
	"testing"

	"github.com/gameserver-exporter/gameserver_exporter/protocols"
	"github.com/gameserver-exporter/gameserver_exporter/protocols/prototest"
)

func BenchmarkDecodeReply(b *testing.B) {
	prototest.DecodeBench(b, vector(b, "ok_bf4"), func(pkt []byte) error { _, err := decodeReply(pkt); return err })
}

// BenchmarkQuery is a full exchange over loopback TCP, one connection per query.
func BenchmarkQuery(b *testing.B) {
	prototest.QueryBench(b, Protocol, protocols.Settings{}, rconServer(b, answering(b, vector(b, "ok_bf4"))))
}
