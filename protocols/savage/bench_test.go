package savage

import (
	"testing"

	"github.com/gameserver-exporter/gameserver_exporter/protocols/prototest"
)

func BenchmarkDecode(b *testing.B) {
	prototest.DecodeBench(b, prototest.VecFile(b, "xr"), func(v []byte) error {
		r, err := decode(v)
		if err == nil {
			r.Result(true, true)
		}
		return err
	})
}

func BenchmarkQuery(b *testing.B) {
	prototest.QueryBench(b, Protocol, all, prototest.UDP(b, server(b, prototest.VecFile(b, "ext_basic"), nil)))
}
