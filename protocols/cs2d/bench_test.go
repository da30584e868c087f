package cs2d

import (
	"testing"

	"github.com/gameserver-exporter/gameserver_exporter/protocols/prototest"
)

func BenchmarkDecode(b *testing.B) {
	prototest.DecodeBench(b, readVec(b, "full"), func(b []byte) error {
		r, err := decode(b)
		if err == nil {
			r.Result(true, true)
		}
		return err
	})
}

func BenchmarkQuery(b *testing.B) {
	prototest.QueryBench(b, Protocol, all, prototest.Answering(b, request, readVec(b, "full")))
}
