package quakeworld

import (
	"strings"
	"testing"

	"github.com/gameserver-exporter/gameserver_exporter/protocols"
	"github.com/gameserver-exporter/gameserver_exporter/protocols/internal/idtech/idtechtest"
	"github.com/gameserver-exporter/gameserver_exporter/protocols/prototest"
)

// TestQstatCrossCheck queries one fake mvdsv with quakestat -qws, which sends
// `status 23` (serverinfo, players, spectators, teams), and with the Querier,
// which sends a plain `status`. The fake answers each the way mvdsv does, so
// both must agree on name, map, players (spectators excluded) and max.
func TestQstatCrossCheck(t *testing.T) {
	const info = `\hostname\Cross Check QW\map\aerowalk\maxclients\8\maxspectators\4\*gamedir\qw\*version\MVDSV 0.35` + "\n"
	addr := prototest.UDP(t, func(req []byte) [][]byte {
		switch string(req) {
		case oob + "status\n":
			return [][]byte{[]byte(oob + "n" + info +
				`1 12 5 48 "Player One" "base" 4 4` + "\n" +
				`7 -3 0 999 "newbie" "" 13 13` + "\n" +
				`9 0 61 10 "" "base" 0 0` + "\n\x00")}
		case oob + "status 23\n":
			return [][]byte{[]byte(oob + "n" + info +
				`1 12 5 48 "Player One" "base" 4 4 "red"` + "\n" +
				`4 -9999 3 -25 "\s\Watcher" "" 0 0 ""` + "\n" +
				`7 -3 0 999 "newbie" "" 13 13 "blue"` + "\n" +
				`9 0 61 10 "" "base" 0 0 ""` + "\n\x00")}
		}
		t.Errorf("unexpected request %q", req)
		return nil
	})

	res, qs := prototest.QstatQuery(t, "-qws", addr, Protocol, protocols.Settings{Players: true})
	if res.Game != qs.Game {
		t.Errorf("game %q, qstat %q", res.Game, qs.Game)
	}

	list := idtechtest.QstatList(t, "-qws", addr)
	// qstat lists spectators among its players (and counts them apart): skip them.
	var qp []string
	for _, p := range list.Players {
		if p.Score != -9999 {
			qp = append(qp, p.Name)
		}
	}
	if list.NumSpectators != 1 || len(qp) != len(res.PlayerList) {
		t.Fatalf("qstat lists %d players (%d spectators), querier %d", len(qp), list.NumSpectators, len(res.PlayerList))
	}
	for i, name := range qp {
		if p := res.PlayerList[i]; p.Name != name || strings.Contains(name, `\`) {
			t.Errorf("player %d: querier %q, qstat %q", i, p.Name, name)
		}
	}
}
