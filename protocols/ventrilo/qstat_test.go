package ventrilo

import (
	"testing"
	"time"

	"github.com/gameserver-exporter/gameserver_exporter/protocols/prototest"
)

// TestQstatCrossCheck queries the same fake server with `quakestat -vent` and
// with the Querier and compares the name, players and max. qstat encrypts its
// request and decrypts the fake's answer with its own code: the fake (and so
// crypt.go) agrees with it both ways, in one packet and in several.
func TestQstatCrossCheck(t *testing.T) {
	prototest.NeedQstat(t)
	for _, f := range []*fake{{body: text(t, "status_generic")}, {body: text(t, "status_generic"), size: 40}} {
		addr := prototest.UDP(t, f.handle)
		qs := prototest.QstatJSON(t, "-vent", addr)
		res, _ := prototest.QueryOK(t, Protocol, addr, prototest.Settings(false, ""), 2*time.Second)
		if qs.Status != "online" || qs.Name != res.Name || int64(qs.NumPlayers) != res.Players.Value || int64(qs.MaxPlayers) != res.MaxPlayers.Value {
			t.Errorf("size %d: qstat %+v, querier %q %d/%d", f.size, qs, res.Name, res.Players.Value, res.MaxPlayers.Value)
		}
	}
}
