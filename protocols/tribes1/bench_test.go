package tribes1

import (
	"testing"

	"github.com/gameserver-exporter/gameserver_exporter/protocols/prototest"
)

func BenchmarkDecode(b *testing.B) {
	prototest.DecodeBench(b, prototest.VecFile(b, "tribes"), decoded.Err)
}

func BenchmarkQuery(b *testing.B) {
	prototest.QueryBench(b, Protocol, all, server(b, prototest.VecFile(b, "tribes")))
}
