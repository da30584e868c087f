package prototest

import (
	"testing"

	"github.com/gameserver-exporter/gameserver_exporter/protocols"
)

// GamedigAgrees checks that gamedig's state and the querier's result of the
// same fake server agree on name, map, version, player count, maximum and the
// listed players' names, in order.
func GamedigAgrees(t testing.TB, gd GamedigState, res *protocols.Result) {
	t.Helper()
	if gd.Name != res.Name || gd.Map != res.Map || gd.Version != res.Version ||
		int64(gd.NumPlayers) != res.Players.Value || int64(gd.MaxPlayers) != res.MaxPlayers.Value {
		t.Errorf("querier %+v, gamedig %+v", res, gd)
	}
	if len(gd.Players) != len(res.PlayerList) {
		t.Fatalf("players %+v, gamedig %+v", res.PlayerList, gd.Players)
	}
	for i, p := range gd.Players {
		if p.Name != res.PlayerList[i].Name {
			t.Errorf("player %d: %q, gamedig %q", i, res.PlayerList[i].Name, p.Name)
		}
	}
}
