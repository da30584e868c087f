package mumble

import (
	"slices"
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
	vec := prototest.HexFile(b, "reply_1_3_4.hex")
	addr := prototest.UDP(b, func(req []byte) [][]byte {
		reply := slices.Clone(vec)
		copy(reply[4:12], req[4:12])
		return [][]byte{reply}
	})
	prototest.QueryBench(b, Protocol, protocols.Settings{}, addr)
}
