package hexen2

import (
	"encoding/json"
	"regexp"
	"testing"
	"time"

	"github.com/gameserver-exporter/gameserver_exporter/protocols/prototest"
)

// unquoted is the one line of quakestat -json's h2s record that is no JSON: it
// prints the server's own address key without quotes.
var unquoted = regexp.MustCompile(`("address": )([^",\n]+),`)

type qstatH2 struct {
	prototest.QstatServer
	Players []struct {
		Name  string `json:"name"`
		Score int    `json:"score"`
	} `json:"players"`
}

// TestQstat queries the same fake server with quakestat -h2s -P (the Hexen II
// NetQuake query) and with the Querier: name, map, counts and players agree.
// quakestat drops high-half (coloured) characters where we show the letter, so the
// server name here is plain.
func TestQstat(t *testing.T) {
	prototest.NeedQstat(t)
	f := stock(t)
	f.info = packet(repServerInfo, []byte("127.0.0.1:26900\x00Plain Castle\x00demo2\x00\x02\x10\x04")...)
	addr := prototest.UDP(t, f.handler(t))
	out := prototest.Qstat(t, "-json", "-P", "-timeout", "5", "-h2s", addr.String())
	var recs []qstatH2
	if err := json.Unmarshal(unquoted.ReplaceAll(out, []byte(`$1"$2",`)), &recs); err != nil || len(recs) != 1 {
		t.Fatalf("quakestat output does not parse: %v\n%s", err, out)
	}
	qs := recs[0]
	res, _ := prototest.QueryOK(t, Protocol, addr, all, 5*time.Second)
	if qs.Name != res.Name || qs.Map != res.Map || int64(qs.NumPlayers) != res.Players.Value || int64(qs.MaxPlayers) != res.MaxPlayers.Value {
		t.Errorf("querier %q %q %d/%d, qstat %+v", res.Name, res.Map, res.Players.Value, res.MaxPlayers.Value, qs.QstatServer)
	}
	// quakestat 2.17 asks for player 0 only (it re-sends index 0 and never asks
	// for 1): every player it lists must be ours, in our order.
	if len(qs.Players) == 0 || len(qs.Players) > len(res.PlayerList) {
		t.Fatalf("players %+v, qstat %+v", res.PlayerList, qs.Players)
	}
	for i, p := range qs.Players {
		if ours := res.PlayerList[i]; p.Name != ours.Name || p.Score != int(ours.Score.Value) {
			t.Errorf("player %d: %q %d, qstat %q %d", i, ours.Name, ours.Score.Value, p.Name, p.Score)
		}
	}
}
