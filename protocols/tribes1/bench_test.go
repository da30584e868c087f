package tribes1

import (
	"testing"

	"github.com/gameserver-exporter/gameserver_exporter/protocols/prototest"
)

func BenchmarkDecode(b *testing.B) {
	prototest.DecodeBench(b, readVec(b, "tribes"), func(b []byte) error {
		r, err := decode(b)
		if err == nil {
			r.Result(true, true)
		}
		return err
	})
}

func BenchmarkQuery(b *testing.B) {
	prototest.QueryBench(b, Protocol, all, server(b, readVec(b, "tribes")))
}
