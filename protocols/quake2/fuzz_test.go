package quake2

import (
	"testing"

	"github.com/gameserver-exporter/gameserver_exporter/protocols"
	"github.com/gameserver-exporter/gameserver_exporter/protocols/internal/idtech/idtechtest"
)

// FuzzDecode checks that no datagram panics the decoder or breaks its caps and
// that everything it returns is valid UTF-8. Seeds: testdata/ (there is no
// real Quake II capture in ../shared), and the QuakeWorld captures, the closest
// relatives, when ../shared is present.
func FuzzDecode(f *testing.F) {
	idtechtest.Fuzz(f, decode, kept, func(t *testing.T, r *reply) *protocols.Result {
		res := r.result(true, true)
		for _, p := range res.PlayerList {
			if p.Team != "" || p.DurationKnown {
				t.Fatalf("team or duration in player %+v", p)
			}
		}
		if !res.Players.Known || res.Players.Value != int64(len(res.PlayerList)) {
			t.Fatalf("players %+v, %d listed", res.Players, len(res.PlayerList))
		}
		return res
	}, "realworld/captures/quakeworld_*.resp.bin")
}

// kept counts the player lines and info pairs a reply keeps.
func kept(r *reply) (lines, pairs int) { return len(r.Players) + r.Unparsed, len(r.Pairs) }
