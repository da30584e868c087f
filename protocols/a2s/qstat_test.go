package a2s

import (
	"testing"
	"time"

	"github.com/gameserver-exporter/gameserver_exporter/protocols"
	"github.com/gameserver-exporter/gameserver_exporter/protocols/internal/steam/steamtest"
	"github.com/gameserver-exporter/gameserver_exporter/protocols/prototest"
)

// TestQstat queries the same fake server with quakestat -a2s and with the Querier.
// qstat's numplayers is the wire count, bots included; Result.Players excludes them
// (see Info.Result), so the comparison adds Result.Bots back.
func TestQstat(t *testing.T) {
	for _, tt := range []struct {
		name string
		srv  *fake
	}{
		{"source with info challenge", &fake{info: one(readHex(t, "info_edf_all.hex")), infoChallenge: true, challenge: [4]byte{7, 7, 7, 7}}},
		{"goldsrc 0x6D", &fake{info: one(readHex(t, "info_m_mod.hex"))}},
		{"no EDF, password", &fake{info: one(readHex(t, "info_no_edf.hex"))}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			addr := tt.srv.start(t)
			qs := prototest.QstatJSON(t, "-a2s", addr)
			res, _, err := query(t, addr, protocols.Settings{}, 2*time.Second)
			if err != nil {
				t.Fatal(err)
			}
			steamtest.QstatAgrees(t, qs, res)
		})
	}
}
