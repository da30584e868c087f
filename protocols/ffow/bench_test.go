package ffow

import (
	"testing"

	"github.com/gameserver-exporter/gameserver_exporter/protocols/prototest"
)

func BenchmarkDecodeInfo(b *testing.B) {
	prototest.DecodeBench(b, vec(b, "info"), prototest.Decoded(decodeInfo, (*info).result).Err)
}
