package darkplaces

import (
	"testing"

	"github.com/gameserver-exporter/gameserver_exporter/protocols"
	"github.com/gameserver-exporter/gameserver_exporter/protocols/internal/idtech/idtechtest"
)

// FuzzDecode checks that no datagram panics the decoder or breaks its caps and
// that everything it returns is valid UTF-8. Seeds: testdata/, and the real
// Nexuiz captures and the quake3 fixtures in ../shared when present.
func FuzzDecode(f *testing.F) {
	idtechtest.Fuzz(f, decode, kept, func(t *testing.T, r *reply) *protocols.Result {
		res := r.result(true, true)
		if r.full() != (res.PlayerList != nil) || r.full() == (len(res.PhaseErrors) == 1) {
			t.Fatalf("full %v, list %v, phase errors %v", r.full(), res.PlayerList, res.PhaseErrors)
		}
		return res
	}, "realworld/captures/nexuiz_*.resp.bin", "fixtures/quake3/*.bin")
}

// kept counts the player lines and info pairs a reply keeps.
func kept(r *reply) (lines, pairs int) { return len(r.Players) + r.Unparsed, len(r.Pairs) }
