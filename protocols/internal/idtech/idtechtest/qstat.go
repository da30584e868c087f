package idtechtest

import (
	"encoding/json"
	"fmt"
	"net/netip"
	"testing"

	"github.com/gameserver-exporter/gameserver_exporter/protocols"
	"github.com/gameserver-exporter/gameserver_exporter/protocols/prototest"
)

// QstatPlayers is what `quakestat -json -P` says of one server's players.
type QstatPlayers struct {
	NumSpectators int
	Players       []QstatPlayer
}

// QstatPlayer is one player line of `quakestat -json -P`.
type QstatPlayer struct {
	Name        string
	Score, Ping int64
	Team        any // a number or a name, by game
}

// QstatList runs `quakestat -json -P flag` against addr (skipping without qstat).
func QstatList(t testing.TB, flag string, addr netip.AddrPort) QstatPlayers {
	t.Helper()
	out := prototest.Qstat(t, "-json", "-timeout", "5", "-P", flag, addr.String())
	var recs []QstatPlayers
	if err := json.Unmarshal(out, &recs); err != nil || len(recs) != 1 {
		t.Fatalf("quakestat output %q: %v", out, err)
	}
	return recs[0]
}

// CheckQstatPlayers checks the querier's player list against qstat's line by
// line: name, score and ping, and team as a decimal when team is set.
func CheckQstatPlayers(t testing.TB, qs []QstatPlayer, list []protocols.Player, team bool) {
	t.Helper()
	if len(qs) != len(list) {
		t.Fatalf("qstat lists %d players, querier %d", len(qs), len(list))
	}
	for i, q := range qs {
		p := list[i]
		if p.Name != q.Name || p.Score.Value != q.Score || p.Ping.Value != q.Ping || team && p.Team != fmt.Sprint(q.Team) {
			t.Errorf("player %d: querier %+v, qstat %+v", i, p, q)
		}
	}
}
