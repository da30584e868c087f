package darkplaces

import (
	"bytes"
	"encoding/json"
	"fmt"
	"net/netip"
	"os"
	"os/exec"
	"slices"
	"strconv"
	"testing"
	"time"

	"github.com/gameserver-exporter/gameserver_exporter/protocols"
	"github.com/gameserver-exporter/gameserver_exporter/protocols/prototest"
	"github.com/gameserver-exporter/gameserver_exporter/protocols/wire"
)

// TestRealServer starts the real Nexuiz 2.5.2 server (Debian package
// nexuiz-server, DarkPlaces engine) on a free loopback port with four bots,
// queries it with the Querier and checks the answer against the server's
// configuration and against what quakestat -nexuizs reports just before.
func TestRealServer(t *testing.T) {
	if testing.Short() {
		t.Skip("starts a real Nexuiz server: skipped with -short")
	}
	const (
		server   = "/usr/games/nexuiz-server"
		engine   = "/usr/games/darkplaces-server"
		hostname = "Exporter Test DP"
		bots     = 4
	)
	prototest.NeedDebian(t, "nexuiz-server")

	home := t.TempDir()
	port := prototest.FreePort(t)
	// Loopback only (IPv4 and IPv6), sv_public 0: no master heartbeats.
	// bot_join_empty keeps the bots on a server without humans; maxplayers is
	// a command, not a cvar.
	cmd := exec.Command(server,
		"+set", "net_address", "127.0.0.1", "+set", "net_address_ipv6", "::1", "+set", "port", strconv.Itoa(int(port)),
		"+set", "sv_public", "0", "+set", "hostname", hostname, "+maxplayers", "10",
		"+set", "bot_join_empty", "1", "+set", "minplayers", strconv.Itoa(bots),
		"+set", "g_maplist", "aggressor", "+set", "timelimit", "0", "+set", "fraglimit", "0", "+map", "aggressor")
	cmd.Dir = home
	cmd.Env = append(os.Environ(), "HOME="+home)
	var log bytes.Buffer
	cmd.Stdout, cmd.Stderr = &log, &log
	if err := cmd.Start(); err != nil {
		t.Skipf("cannot start %s: %v", server, err)
	}
	exited := make(chan struct{})
	go func() { cmd.Wait(); close(exited) }()
	t.Cleanup(func() {
		cmd.Process.Kill()
		<-exited
		if t.Failed() {
			t.Logf("server output:\n%s", log.String())
		}
	})

	// Poll until the bots are in. Each query waits up to 1.2 s, so that a
	// query the flood block ignores is never followed by another within 1 s.
	addr := netip.AddrPortFrom(netip.MustParseAddr("127.0.0.1"), port)
	q := newQuerier(t, protocols.Settings{Players: true, Rules: true, Retries: 2})
	deadline := time.After(25 * time.Second)
	tick := time.NewTicker(100 * time.Millisecond)
	defer tick.Stop()
	for {
		r, err := q.Query(prototest.Context(t, 1200*time.Millisecond), addr, nil)
		if err == nil && r.Players.Value >= bots {
			break
		}
		select {
		case <-exited:
			t.Fatalf("the server exited (last query: %v)", err)
		case <-deadline:
			t.Fatalf("no answer with %d players within 25 s: %+v, %v", bots, r, err)
		case <-tick.C:
		}
	}

	// qstat sends getinfo, then getstatus once the info is in. The engine's
	// flood block drops queries that come within 1 s of the last one it
	// answered; qstat re-sends getinfo but not getstatus, so a run right after
	// another query can come back without its player list. Run it until it
	// has one.
	type qstatRecord struct {
		Status, Name, Map      string
		NumPlayers, MaxPlayers int64
		Players                []struct{ Name string }
	}
	var recs []qstatRecord
	for run := 1; ; run++ {
		// Each run from its own source address: the flood block is per address, so
		// runs neither block each other nor the querier (127.0.0.1).
		src := fmt.Sprintf("127.0.0.%d", run+1)
		out := prototest.Qstat(t, "-json", "-timeout", "8", "-srcip", src, "-P", "-nexuizs", addr.String())
		if err := json.Unmarshal(out, &recs); err != nil || len(recs) != 1 {
			t.Fatalf("quakestat output %q: %v", out, err)
		}
		if len(recs[0].Players) > 0 || run == 5 {
			break
		}
		t.Logf("quakestat run %d got no player list (flood block), running it again", run)
	}
	qs := recs[0]

	// The querier's getstatus may still fall in a flood block of its own earlier
	// probes: with 6 s and 2 retries it re-sends after more than a second.
	tr := wire.NewTrace()
	res, err := q.Query(prototest.Context(t, 6*time.Second), addr, tr)
	if err != nil {
		t.Fatalf("querier after qstat (%d sends): %v", tr.Attempts, err)
	}
	t.Logf("querier after qstat: %d sends", tr.Attempts)
	if res.Name != hostname || res.Map != "aggressor" || res.Game != "Nexuiz" || res.Version != "2.5.2" ||
		res.MaxPlayers != protocols.Known(10) || res.Players != protocols.Known(bots) || res.Bots != protocols.Known(bots) ||
		len(res.PlayerList) != bots || len(res.PhaseErrors) != 0 {
		t.Errorf("querier: %+v", res)
	}
	var names, qnames []string
	for _, p := range res.PlayerList {
		if !p.Bot || p.Ping != protocols.Known(0) || !p.Score.Known {
			t.Errorf("player %+v: want a bot with ping 0 and a score", p)
		}
		names = append(names, p.Name)
	}
	for _, p := range qs.Players {
		qnames = append(qnames, p.Name)
	}
	slices.Sort(names)
	slices.Sort(qnames)
	if qs.Status != "online" || qs.Name != res.Name || qs.Map != res.Map || qs.NumPlayers != res.Players.Value ||
		qs.MaxPlayers != res.MaxPlayers.Value || !slices.Equal(names, qnames) {
		t.Errorf("qstat %+v, querier %q %q %+v %+v %q", qs, res.Name, res.Map, res.Players, res.MaxPlayers, names)
	}
}
