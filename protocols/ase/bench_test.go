package ase

import (
	"testing"

	"github.com/gameserver-exporter/gameserver_exporter/protocols/prototest"
)

func BenchmarkDecode(b *testing.B) {
	// about the size of MTA's 203-player capture
	prototest.DecodeBench(b, bigReply(200), func(v []byte) error { _, err := decode(v); return err })
}

func BenchmarkQuery(b *testing.B) {
	reply := bigReply(50)
	prototest.QueryBench(b, Protocol, all, prototest.UDP(b, func([]byte) [][]byte { return [][]byte{reply} }))
}
