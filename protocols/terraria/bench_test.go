package terraria

import (
	"testing"

	"github.com/gameserver-exporter/gameserver_exporter/protocols"
	"github.com/gameserver-exporter/gameserver_exporter/protocols/prototest"
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
	prototest.QueryBench(b, Protocol, protocols.Settings{Players: true}, addr)
}
