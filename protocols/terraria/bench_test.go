package terraria

import (
	"testing"
	"time"

	"github.com/gameserver-exporter/gameserver_exporter/protocols"
	"github.com/gameserver-exporter/gameserver_exporter/protocols/prototest"
	"github.com/gameserver-exporter/gameserver_exporter/protocols/wire"
)

func BenchmarkDecode(b *testing.B) {
	resp := prototest.JSONResponse(200, prototest.File(b, "status_players_rules.json"))
	b.ReportAllocs()
	for b.Loop() {
		st, err := decode(resp)
		if err != nil {
			b.Fatal(err)
		}
		_ = st.result(true, true)
	}
}

func BenchmarkQuery(b *testing.B) {
	addr := fakeTShock(b, prototest.File(b, "status_players_rules.json"), nil)
	q := prototest.MustNew(b, Protocol, protocols.Settings{Players: true})
	tr := wire.NewTrace()
	b.ReportAllocs()
	for b.Loop() {
		tr.Reset()
		if _, err := q.Query(prototest.Context(b, 2*time.Second), protocols.At(addr), tr); err != nil {
			b.Fatal(err)
		}
	}
}
