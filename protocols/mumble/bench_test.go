package mumble

import (
	"testing"

	"github.com/gameserver-exporter/gameserver_exporter/protocols"
	"github.com/gameserver-exporter/gameserver_exporter/protocols/prototest"
)

func BenchmarkDecode(b *testing.B) {
	prototest.DecodeBench(b, prototest.HexFile(b, "reply_1_3_4.hex"), func(v []byte) error {
		st, err := decode(v, vecIdent)
		if err == nil {
			_ = st.Result(false)
		}
		return err
	})
}

func BenchmarkQuery(b *testing.B) {
	prototest.QueryBench(b, Protocol, protocols.Settings{}, prototest.UDP(b, echoing(b, false, "reply_1_3_4.hex")))
}
