package scpsl

import (
	"testing"

	"github.com/gameserver-exporter/gameserver_exporter/protocols/prototest"
)

func BenchmarkDecode(b *testing.B) {
	prototest.DecodeBench(b, prototest.File(b, "serverinfo_basic.json"), func(data []byte) error {
		_, err := decodeVector(data, 0, 7777, true)
		return err
	})
}
