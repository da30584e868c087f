package soldat

import (
	"testing"

	"github.com/gameserver-exporter/gameserver_exporter/protocols/prototest"
	"github.com/gameserver-exporter/gameserver_exporter/protocols/wire"
)

func BenchmarkDecode(b *testing.B) {
	prototest.DecodeBench(b, vec(b, "refreshx_ctf"), func(v []byte) error {
		rf, err := decodeRefresh(v, wire.UTF8)
		if err == nil {
			rf.result(true)
		}
		return err
	})
}
