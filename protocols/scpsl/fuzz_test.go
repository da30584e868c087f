package scpsl

import (
	"testing"

	"github.com/gameserver-exporter/gameserver_exporter/protocols/prototest"
)

// FuzzDecode checks that no answer panics the decoder and that every server
// it maps gives a valid UTF-8 result with counts in range and a capped list.
func FuzzDecode(f *testing.F) {
	prototest.SeedFiles(f, "*.json")
	f.Fuzz(func(t *testing.T, b []byte) {
		a, err := decode(b)
		if err != nil {
			return
		}
		if len(a.Servers) > maxServers {
			t.Fatalf("%d servers kept", len(a.Servers))
		}
		apiError(a, 0, "k")
		for i := range a.Servers {
			res, err := a.Servers[i].result(true)
			if err != nil {
				continue
			}
			prototest.CheckUTF8(t, res)
			if res.Players.Value < 0 || res.Players.Value > maxPlayers || res.MaxPlayers.Value > maxPlayers || len(res.PlayerList) > maxListed || res.Bots.Known {
				t.Fatalf("players %+v, max %+v, %d listed", res.Players, res.MaxPlayers, len(res.PlayerList))
			}
		}
	})
}
