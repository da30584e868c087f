package darkplaces

import (
	"testing"

	"github.com/gameserver-exporter/gameserver_exporter/protocols/internal/idtech/idtechtest"
	"github.com/gameserver-exporter/gameserver_exporter/protocols/prototest"
)

// FuzzDecode checks that no datagram panics the decoder or breaks its caps and
// that everything it returns is valid UTF-8. Seeds: testdata/, and the real
// Nexuiz captures and the quake3 fixtures in ../shared when present.
func FuzzDecode(f *testing.F) {
	idtechtest.Fuzz(f, decode, func(t *testing.T, r *reply) {
		idtechtest.CheckCaps(t, len(r.Players), r.Unparsed, len(r.Pairs))
		res := r.result(true, true)
		prototest.CheckUTF8(t, res)
		if res.Players.Known && res.Players.Value < 0 || res.Bots.Known && res.Bots.Value < 0 {
			t.Fatalf("negative count %+v %+v", res.Players, res.Bots)
		}
		if r.full() != (res.PlayerList != nil) || r.full() == (len(res.PhaseErrors) == 1) {
			t.Fatalf("full %v, list %v, phase errors %v", r.full(), res.PlayerList, res.PhaseErrors)
		}
	}, "realworld/captures/nexuiz_*.resp.bin", "fixtures/quake3/*.bin")
}
