package tribes1

import (
	"strings"
	"testing"
	"time"

	"github.com/gameserver-exporter/gameserver_exporter/protocols/prototest"
)

type qstatTbs struct {
	prototest.QstatServer
	Players []struct {
		Name  string `json:"name"`
		Score int    `json:"score"`
		Ping  int    `json:"ping"`
	} `json:"players"`
}

// TestQstat queries the same fake Tribes server with quakestat -tbs -P and with
// the Querier: name, map, mission type, counts and the players' pings agree.
// quakestat's JSON drops non-ASCII bytes from the Latin-1 name, and reads a
// player's score at a fixed offset of the values (our vector's layout differs),
// so the name is compared as ASCII and scores are not compared.
func TestQstat(t *testing.T) {
	prototest.NeedQstat(t)
	addr := server(t, prototest.VecFile(t, "tribes"))
	qs := prototest.QstatRecordOf[qstatTbs](t, "-tbs", addr, "-P")
	res, _ := prototest.QueryOK(t, Protocol, addr, all, 5*time.Second)
	if prototest.QstatASCII(res.Name) != prototest.QstatASCII(qs.Name) || qs.Map != res.Map || qs.Game != res.Game ||
		int64(qs.NumPlayers) != res.Players.Value || int64(qs.MaxPlayers) != res.MaxPlayers.Value {
		t.Errorf("querier %q %q %q %d/%d, qstat %+v", res.Name, res.Map, res.Game, res.Players.Value, res.MaxPlayers.Value, qs.QstatServer)
	}
	var names []string
	for _, p := range qs.Players {
		names = append(names, p.Name)
		for _, ours := range res.PlayerList {
			if ours.Name == p.Name && ours.Ping.Value != int64(p.Ping) {
				t.Errorf("player %s: ping %d, qstat %d", p.Name, ours.Ping.Value, p.Ping)
			}
		}
	}
	t.Logf("qstat players and teams: %q", names)
	for _, ours := range res.PlayerList {
		if !strings.Contains(strings.Join(names, "\n"), ours.Name) {
			t.Errorf("player %s not in qstat's list %q", ours.Name, names)
		}
	}
}
