package ffow

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/gameserver-exporter/gameserver_exporter/protocols"
	"github.com/gameserver-exporter/gameserver_exporter/protocols/prototest"
)

// TestQstatCrossCheck queries the same fake server with `quakestat -fls` and with
// the Querier and compares the name, map, players and max; with -P, qstat's
// player records (ping, profile id and team behind the A2S fields) must give the
// same names.
func TestQstatCrossCheck(t *testing.T) {
	prototest.NeedQstat(t)
	f := newFake(t)
	addr := prototest.UDP(t, f.handle)
	qs := prototest.QstatJSON(t, "-fls", addr)
	res, _ := prototest.QueryOK(t, Protocol, addr, protocols.Settings{Players: true}, 2*time.Second)
	if qs.Status != "online" || qs.Name != res.Name || qs.Map != res.Map || int64(qs.NumPlayers) != res.Players.Value || int64(qs.MaxPlayers) != res.MaxPlayers.Value {
		t.Errorf("qstat %+v, querier %+v", qs, res)
	}
	// qstat -raw prints a player as name,score,time,ping,team: the ASCII one must
	// read as ours does (qstat mangles the non-ASCII name).
	out := string(prototest.Qstat(t, "-timeout", "5", "-P", "-raw", ",", "-fls", addr.String()))
	p := res.PlayerList[0]
	want := fmt.Sprintf("\n%s,%d,%.0f,%d,%s\n", p.Name, p.Score.Value, p.Duration, p.Ping.Value, p.Team)
	if !strings.Contains(out, want) {
		t.Errorf("qstat players %q lack %q", out, want)
	}
}
