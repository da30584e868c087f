package gamespy1

import (
	"testing"

	"github.com/gameserver-exporter/gameserver_exporter/protocols"
	"github.com/gameserver-exporter/gameserver_exporter/protocols/prototest"
)

func BenchmarkDecode(b *testing.B) {
	parts := readParts(b, "ut_shuffled")
	prototest.DecodeBench(b, nil, func([]byte) error {
		_, err := decode(parts)
		return err
	})
}

func BenchmarkQuery(b *testing.B) {
	parts := readParts(b, "ut_shuffled")
	addr := prototest.UDP(b, func([]byte) [][]byte { return parts })
	prototest.QueryBench(b, Protocol, protocols.Settings{Players: true, Rules: true}, addr)
}
