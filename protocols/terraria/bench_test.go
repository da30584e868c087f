package terraria

import (
	"testing"

	"github.com/gameserver-exporter/gameserver_exporter/protocols"
	"github.com/gameserver-exporter/gameserver_exporter/protocols/prototest"
)

func BenchmarkDecode(b *testing.B) {
	resp := prototest.JSONResponse(200, prototest.File(b, "status_players_rules.json"))
	prototest.DecodeBench(b, nil, func([]byte) error {
		st, err := decode(resp)
		if err == nil {
			st.result(true, true)
		}
		return err
	})
}

func BenchmarkQuery(b *testing.B) {
	addr := fakeTShock(b, prototest.File(b, "status_players_rules.json"), nil)
	prototest.QueryBench(b, Protocol, protocols.Settings{Players: true}, addr)
}
