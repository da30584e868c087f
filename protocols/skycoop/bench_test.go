package skycoop

import (
	"testing"
	"time"

	"github.com/gameserver-exporter/gameserver_exporter/protocols"
	"github.com/gameserver-exporter/gameserver_exporter/protocols/prototest"
	"github.com/gameserver-exporter/gameserver_exporter/protocols/wire"
)

func BenchmarkDecode(b *testing.B) {
	vec := loadHex(b, "rcon_counted.hex")
	b.ReportAllocs()
	for b.Loop() {
		st, err := decodeReply(vec, defaultPacketID)
		if err != nil {
			b.Fatal(err)
		}
		_ = st.Result(true)
	}
}

func BenchmarkQuery(b *testing.B) {
	vec := loadHex(b, "rcon_counted.hex")
	addr := prototest.UDP(b, func([]byte) [][]byte { return [][]byte{vec} })
	q := testQuerier(b, protocols.Settings{Players: true})
	tr := wire.NewTrace()
	b.ReportAllocs()
	for b.Loop() {
		tr.Reset()
		if _, err := q.Query(prototest.Context(b, 2*time.Second), protocols.At(addr), tr); err != nil {
			b.Fatal(err)
		}
	}
}
