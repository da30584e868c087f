package bedrock

import (
	"testing"

	"github.com/gameserver-exporter/gameserver_exporter/protocols"
	"github.com/gameserver-exporter/gameserver_exporter/protocols/prototest"
)

func BenchmarkDecode(b *testing.B) {
	prototest.DecodeBench(b, vec(b, "bds_full"), func(v []byte) error {
		if err := answers(v, vecTime); err != nil {
			return err
		}
		p, err := decode(v)
		if err == nil {
			p.result()
		}
		return err
	})
}

// BenchmarkQuery is a full ping/pong over loopback.
func BenchmarkQuery(b *testing.B) {
	prototest.QueryBench(b, Protocol, protocols.Settings{}, prototest.UDP(b, echo(bdsID)))
}
