package discord

import (
	"testing"

	"github.com/gameserver-exporter/gameserver_exporter/protocols/prototest"
)

// FuzzDecode checks that no answer panics the decoder and that a decoded
// widget's result is valid UTF-8, keeps its list cap and has no negative count.
func FuzzDecode(f *testing.F) {
	prototest.SeedFiles(f, "*.json")
	f.Fuzz(func(t *testing.T, b []byte) {
		apiCode(b)
		w, err := decode(b)
		if err != nil {
			return
		}
		res := w.result(true)
		prototest.CheckUTF8(t, res)
		if len(res.PlayerList) > maxMembers || res.Players.Value < 0 || res.MaxPlayers.Known || res.Bots.Known {
			t.Fatalf("%d players listed, players %+v, max %+v, bots %+v", len(res.PlayerList), res.Players, res.MaxPlayers, res.Bots)
		}
	})
}
