package ase

import (
	"net/netip"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/gameserver-exporter/gameserver_exporter/protocols/prototest"
)

// TestQstat queries the same fake servers with quakestat -eye and with the Querier.
// quakestat adds the 123 offset to the port it is given (checked by hand: asked for
// port P it sends "s" to P+123), so it is handed the fake server's port - 123, while
// the Querier, like the exporter after applying PortOffset, gets the port itself.
func TestQstat(t *testing.T) {
	replies := map[string][][]byte{
		"basic": {prototest.VecFile(t, "basic")},
		"big":   {bigReply(80)},
		"split": split(bigReply(80), "\x00\x00\x00\x07"),
	}
	// The real capture joins in when ../shared is there; the own vectors run regardless.
	if b, err := os.ReadFile(filepath.Join(prototest.SharedDir(), "fixtures", "ase", "mta_s_2.bin")); err == nil && prototest.SharedDir() != "" {
		replies["mta_s_2"] = [][]byte{b}
	}
	for name, reply := range replies {
		t.Run(name, func(t *testing.T) {
			addr := prototest.UDP(t, func([]byte) [][]byte { return reply })
			gamePort := netip.AddrPortFrom(addr.Addr(), addr.Port()-123)
			qs := prototest.QstatOne(t, "-P", "-R", "-eye", gamePort.String())

			res, _, err := prototest.QueryNew(t, Protocol, addr, all, 5*time.Second)
			if err != nil {
				t.Fatal(err)
			}
			if prototest.QstatASCII(res.Name) != qs.Name || res.Map != qs.Map || res.Players.Value != int64(qs.NumPlayers) ||
				res.MaxPlayers.Value != int64(qs.MaxPlayers) {
				t.Errorf("querier %q %q %v/%v, qstat %q %q %d/%d", res.Name, res.Map, res.Players, res.MaxPlayers,
					qs.Name, qs.Map, qs.NumPlayers, qs.MaxPlayers)
			}
			if qs.Rules["gamename"] != res.Game || qs.Rules["_version"] != res.Version {
				t.Errorf("game %q version %q, qstat %q %q", res.Game, res.Version, qs.Rules["gamename"], qs.Rules["_version"])
			}
			for _, kv := range res.Rules {
				if v, ok := qs.Rules[kv.Key]; !ok || v != kv.Value {
					t.Errorf("rule %s = %q, qstat %q", kv.Key, kv.Value, v)
				}
			}
			if len(res.PlayerList) != len(qs.Players) {
				t.Fatalf("%d players, qstat %d", len(res.PlayerList), len(qs.Players))
			}
			for i, p := range res.PlayerList {
				q := qs.Players[i]
				team := q.Team()
				if team == "0" && p.Team == "" {
					team = "" // quakestat prints 0 for a record without a team
				}
				if p.Name != q.Name || p.Team != team || p.Score.Value != q.Score || p.Ping.Value != q.Ping {
					t.Errorf("player %d: %+v, qstat %+v", i, p, q)
				}
			}
		})
	}
}
