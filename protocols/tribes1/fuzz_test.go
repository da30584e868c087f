package tribes1

import (
	"maps"
	"slices"
	"testing"

	"github.com/gameserver-exporter/gameserver_exporter/protocols"
	"github.com/gameserver-exporter/gameserver_exporter/protocols/prototest"
)

// No real Tribes or Starsiege capture is committed: the seeds are the own vectors.
func FuzzDecode(f *testing.F) {
	prototest.FuzzResults(f, slices.Collect(maps.Values(allVecs(f))), func(t *testing.T, b []byte) *protocols.Result {
		r, err := decode(b)
		if err != nil {
			return nil
		}
		res := r.Result(true, true)
		if len(res.PlayerList) > maxPlayers {
			t.Fatalf("%d players past the cap", len(res.PlayerList))
		}
		return res
	})
}
