package mumble

import (
	"testing"
	"time"

	"github.com/gameserver-exporter/gameserver_exporter/protocols"
	"github.com/gameserver-exporter/gameserver_exporter/protocols/prototest"
)

// TestQstatCrossCheck queries the same fake server with `quakestat -mumble` and
// with the Querier. qstat reports no name or map for Mumble ("Unknown", "N/A")
// and a wrong version, so only the user counts are compared.
func TestQstatCrossCheck(t *testing.T) {
	prototest.NeedQstat(t)
	for _, file := range []string{"reply_1_3_4.hex", "reply_1_5_patch_capped.hex"} {
		t.Run(file, func(t *testing.T) {
			addr := prototest.UDP(t, echoing(t, false, file))
			qs := prototest.QstatJSON(t, "-mumble", addr)
			res, _ := prototest.QueryOK(t, Protocol, addr, protocols.Settings{}, 2*time.Second)
			if qs.Status != "online" || int64(qs.NumPlayers) != res.Players.Value || int64(qs.MaxPlayers) != res.MaxPlayers.Value {
				t.Errorf("qstat %+v, querier %d/%d", qs, res.Players.Value, res.MaxPlayers.Value)
			}
		})
	}
}
