package starmade

import (
	"testing"

	"github.com/gameserver-exporter/gameserver_exporter/protocols/prototest"
)

func BenchmarkDecode(b *testing.B) {
	prototest.DecodeBench(b, vec(b, "status_default"), func(v []byte) error { _, err := decodeAnswer(v); return err })
}
