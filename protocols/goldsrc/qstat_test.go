package goldsrc

import (
	"encoding/json"
	"os/exec"
	"strings"
	"testing"

	"github.com/gameserver-exporter/gameserver_exporter/protocols"
	"github.com/gameserver-exporter/gameserver_exporter/protocols/internal/steam/steamtest"
	"github.com/gameserver-exporter/gameserver_exporter/protocols/prototest"
)

// TestQstat queries the same fake server with quakestat and with the Querier.
// quakestat -hls sends the text words "details", "players" and "rules" (checked by
// hand on a listening socket); -hlqs sends "infostring". Its numplayers is the wire
// count, bots included; Result.Players excludes them, so Result.Bots is added back.
func TestQstat(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name, flag string
		srv        *fake
		full       bool // also compare players and rules (-P -R)
	}{
		{"WON server, text words only", "-hls", &fake{details: one(readHex(t, "info_m_plain.hex")),
			textPlayers: one(readHex(t, "players_D.hex")), textRules: steamtest.Frags(t, "rules_split")}, true},
		{"HLDS answering A2S and details", "-hls", &fake{a2sInfo: one(readHex(t, "info_m_plain.hex")), details: one(readHex(t, "info_m_plain.hex")),
			players: one(readHex(t, "players_D.hex")), rules: steamtest.Frags(t, "rules_split"),
			textPlayers: one(readHex(t, "players_D.hex")), textRules: steamtest.Frags(t, "rules_split")}, true},
		{"HLTV proxy, 0x6D without bots", "-hls", &fake{details: one(readHex(t, "info_m_hltv.hex"))}, false},
		{"infostring", "-hlqs", &fake{infoString: one(readHex(t, "infostring.hex"))}, false},
	}
	if _, err := exec.LookPath("quakestat"); err != nil {
		t.Skip("quakestat (Debian package qstat) is not installed: skipping the qstat cross-check")
	}
	for _, tt := range cases {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			addr, d := tt.srv.start(t), textDeadline
			if tt.flag == "-hlqs" {
				d = lateDeadline
			}
			res, _, err := query(t, addr, protocols.Settings{Players: tt.full, Rules: tt.full}, d)
			if err != nil {
				t.Fatal(err)
			}
			steamtest.QstatAgrees(t, prototest.QstatJSON(t, tt.flag, addr), res)
			if tt.full {
				comparePlayersRules(t, addr.String(), res)
			}
		})
	}
}

// comparePlayersRules compares the player list and the server's own rules with
// quakestat -P -R (which adds rules of its own, such as gamedir, from the info reply).
func comparePlayersRules(t *testing.T, addr string, res *protocols.Result) {
	t.Helper()
	out := prototest.Qstat(t, "-json", "-timeout", "5", "-P", "-R", "-hls", addr)
	var recs []struct {
		Rules   map[string]string `json:"rules"`
		Players []struct {
			Name  string `json:"name"`
			Score int64  `json:"score"`
		} `json:"players"`
	}
	if err := json.Unmarshal(out, &recs); err != nil || len(recs) != 1 {
		t.Fatalf("quakestat output %q: %v", out, err)
	}
	qs := recs[0]
	if len(qs.Players) != len(res.PlayerList) {
		t.Fatalf("qstat %d players, Querier %d", len(qs.Players), len(res.PlayerList))
	}
	for i, p := range qs.Players {
		eq(t, "score", res.PlayerList[i].Score.Value, p.Score)
		if ascii(res.PlayerList[i].Name) { // qstat mangles non-ASCII bytes
			eq(t, "player name", res.PlayerList[i].Name, p.Name)
		}
	}
	for _, r := range res.Rules {
		if ascii(r.Value) {
			eq(t, "rule "+r.Key, r.Value, qs.Rules[r.Key])
		}
	}
}

func ascii(s string) bool { return !strings.ContainsFunc(s, func(r rune) bool { return r >= 0x80 }) }
