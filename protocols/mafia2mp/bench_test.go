package mafia2mp

import (
	"testing"

	"github.com/gameserver-exporter/gameserver_exporter/protocols"
	"github.com/gameserver-exporter/gameserver_exporter/protocols/prototest"
	"github.com/gameserver-exporter/gameserver_exporter/protocols/wire"
)

func BenchmarkDecode(b *testing.B) {
	prototest.DecodeBench(b, prototest.VecFile(b, "m2o"), func(b []byte) error {
		r, err := decode(b, tagOnline, wire.UTF8)
		if err == nil {
			r.Result(true)
		}
		return err
	})
}

func BenchmarkQuery(b *testing.B) {
	prototest.QueryBench(b, Protocol, protocols.Settings{Players: true}, server(b, tagM2MP, prototest.VecFile(b, "m2mp")))
}
