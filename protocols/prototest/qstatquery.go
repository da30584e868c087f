package prototest

import (
	"net/netip"
	"testing"
	"time"

	"github.com/gameserver-exporter/gameserver_exporter/protocols"
)

// QstatQuery asks the fake at addr with quakestat (QstatJSON: its flag and
// extra arguments) and with a querier p makes of s, and fails unless both
// answer and agree on the name, map, player count and max; it returns both
// for the checks that are the protocol's own. quakestat is given the game
// port, addr's less p.PortOffset, as it adds the offset itself. Skips when
// quakestat is missing.
func QstatQuery(t testing.TB, flag string, addr netip.AddrPort, p protocols.Protocol, s protocols.Settings, extra ...string) (*protocols.Result, QstatServer) {
	t.Helper()
	qs := QstatJSON(t, flag, netip.AddrPortFrom(addr.Addr(), addr.Port()-uint16(p.PortOffset)), extra...)
	if qs.Status != "online" {
		t.Fatalf("qstat: %+v", qs)
	}
	res, _, err := QueryNew(t, p, addr, s, 5*time.Second)
	if err != nil {
		t.Fatal(err)
	}
	if res.Name != qs.Name || res.Map != qs.Map || res.Players != protocols.Known(int64(qs.NumPlayers)) || res.MaxPlayers != protocols.Known(int64(qs.MaxPlayers)) {
		t.Errorf("querier %q %q %v/%v, qstat %q %q %d/%d", res.Name, res.Map, res.Players, res.MaxPlayers,
			qs.Name, qs.Map, qs.NumPlayers, qs.MaxPlayers)
	}
	return res, qs
}
