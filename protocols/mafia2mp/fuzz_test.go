package mafia2mp

import (
	"testing"

	"github.com/gameserver-exporter/gameserver_exporter/protocols/prototest"
	"github.com/gameserver-exporter/gameserver_exporter/protocols/wire"
)

// No real capture is committed: the seeds are the own vectors, read with both tags.
func FuzzDecode(f *testing.F) {
	for _, b := range prototest.AllVecs(f) {
		f.Add(b)
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		for _, tag := range []string{tagM2MP, tagOnline} {
			r, err := decode(b, tag, wire.UTF8)
			if err != nil {
				continue
			}
			res := r.Result(true)
			prototest.CheckUTF8(t, res)
			if len(res.PlayerList) > maxPlayers {
				t.Fatalf("%d players past the cap", len(res.PlayerList))
			}
			if res.Players.Value < 0 || res.MaxPlayers.Value < 0 {
				t.Fatalf("negative counts %+v", res)
			}
		}
	})
}
