package kspdmp

import (
	"testing"
	"time"

	"github.com/gameserver-exporter/gameserver_exporter/protocols"
	"github.com/gameserver-exporter/gameserver_exporter/protocols/prototest"
)

// TestQstat queries the same fake status page with quakestat -ksp (which reads
// the object's fields from its one line) and with the Querier.
func TestQstat(t *testing.T) {
	prototest.NeedQstat(t)
	addr := prototest.StatusPages(t, map[string]string{"/": "status.json"})
	qs := prototest.QstatJSON(t, "-ksp", addr)
	res, _ := prototest.QueryOK(t, Protocol, addr, protocols.Settings{}, 2*time.Second)
	if qs.Name != res.Name || int64(qs.NumPlayers) != res.Players.Value || int64(qs.MaxPlayers) != res.MaxPlayers.Value {
		t.Errorf("querier %q %d/%d, qstat %+v", res.Name, res.Players.Value, res.MaxPlayers.Value, qs)
	}
}
