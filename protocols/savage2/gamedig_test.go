package savage2

import (
	"testing"

	"github.com/gameserver-exporter/gameserver_exporter/protocols"
	"github.com/gameserver-exporter/gameserver_exporter/protocols/prototest"
)

// TestGamedig queries the same fake servers with gamedig (npm, game s2ats) and
// the Querier. On the later layout they agree on name, map, counts and version;
// on the 1.x layout (the jxqf captures) with its stats flag 0, gamedig reads
// that byte as an empty game mode and the races as the version. (gamedig also
// strips ^ and one character, leaving "00" of a ^900 code.)
func TestGamedig(t *testing.T) {
	for _, tc := range []struct {
		vec, gdVersion string
	}{{"modern", "2.1.0.1"}, {"waiting", "HvB"}} {
		t.Run(tc.vec, func(t *testing.T) {
			addr := prototest.Answering(t, request, prototest.VecFile(t, tc.vec))
			gd, res := prototest.GamedigQuery(t, "s2ats", map[string]any{"stripColors": true}, Protocol, protocols.Settings{}, addr)
			if gd.Name != res.Name || gd.Map != res.Map || int64(gd.NumPlayers) != res.Players.Value || int64(gd.MaxPlayers) != res.MaxPlayers.Value {
				t.Errorf("querier %q %q %d/%d, gamedig %+v", res.Name, res.Map, res.Players.Value, res.MaxPlayers.Value, gd)
			}
			if gd.Version != tc.gdVersion {
				t.Errorf("gamedig version %q, want %q (ours %q)", gd.Version, tc.gdVersion, res.Version)
			}
		})
	}
}
