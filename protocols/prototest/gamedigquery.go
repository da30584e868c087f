package prototest

import (
	"net/netip"
	"testing"
	"time"

	"github.com/gameserver-exporter/gameserver_exporter/protocols"
)

// GamedigQuery reads the fake server at addr twice, with gamedig (game and
// opts as Gamedig takes them; skipped without gamedig) and with the querier p
// makes of s, and fails the test when either read fails: the two readings a
// gamedig comparison compares.
func GamedigQuery(t testing.TB, game string, opts map[string]any, p protocols.Protocol, s protocols.Settings, addr netip.AddrPort) (GamedigState, *protocols.Result) {
	t.Helper()
	gd, msg, ok := Gamedig(t, game, addr.Port(), opts)
	if !ok {
		t.Fatalf("gamedig failed: %s", msg)
	}
	res, _, err := QueryNew(t, p, addr, s, 5*time.Second)
	if err != nil {
		t.Fatal(err)
	}
	return gd, res
}
