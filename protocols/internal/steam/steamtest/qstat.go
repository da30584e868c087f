package steamtest

import (
	"net/netip"
	"testing"
	"time"

	"github.com/gameserver-exporter/gameserver_exporter/protocols"
	"github.com/gameserver-exporter/gameserver_exporter/protocols/prototest"
)

// QstatAgrees holds res to quakestat's record of the same server: online, the
// same name, map and max, and its numplayers (the wire count, bots included)
// equal to Players plus Bots.
func QstatAgrees(t testing.TB, qs prototest.QstatServer, res *protocols.Result) {
	t.Helper()
	if qs.Status != "online" {
		t.Fatalf("qstat status %q", qs.Status)
	}
	got := [...]any{res.Name, res.Map, int(res.Players.Value + res.Bots.Value), int(res.MaxPlayers.Value)}
	if want := [...]any{qs.Name, qs.Map, qs.NumPlayers, qs.MaxPlayers}; got != want {
		t.Errorf("Querier (name, map, players, max) %v, qstat %v", got, want)
	}
}

// QstatQuery queries addr with quakestat flag, then with p, which must succeed
// within d, and holds the Result to quakestat's record (QstatAgrees).
func QstatQuery(t testing.TB, flag string, addr netip.AddrPort, p protocols.Protocol, s protocols.Settings, d time.Duration) *protocols.Result {
	t.Helper()
	qs := prototest.QstatJSON(t, flag, addr)
	res, _ := prototest.QueryOK(t, p, addr, s, d)
	QstatAgrees(t, qs, res)
	return res
}
