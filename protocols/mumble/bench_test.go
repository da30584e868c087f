package mumble

import (
	"slices"
	"testing"
	"time"

	"github.com/gameserver-exporter/gameserver_exporter/protocols"
	"github.com/gameserver-exporter/gameserver_exporter/protocols/prototest"
	"github.com/gameserver-exporter/gameserver_exporter/protocols/wire"
)

func BenchmarkDecode(b *testing.B) {
	vec := prototest.HexFile(b, "reply_1_3_4.hex")
	b.ReportAllocs()
	for b.Loop() {
		st, err := decode(vec, vecIdent)
		if err != nil {
			b.Fatal(err)
		}
		_ = st.Result(false)
	}
}

func BenchmarkQuery(b *testing.B) {
	vec := prototest.HexFile(b, "reply_1_3_4.hex")
	addr := prototest.UDP(b, func(req []byte) [][]byte {
		reply := slices.Clone(vec)
		copy(reply[4:12], req[4:12])
		return [][]byte{reply}
	})
	q := testQuerier(b, protocols.Settings{})
	tr := wire.NewTrace()
	b.ReportAllocs()
	for b.Loop() {
		tr.Reset()
		if _, err := q.Query(prototest.Context(b, 2*time.Second), protocols.At(addr), tr); err != nil {
			b.Fatal(err)
		}
	}
}
