package prototest

import (
	"maps"
	"slices"
	"testing"

	"github.com/gameserver-exporter/gameserver_exporter/protocols"
)

// FuzzVecs fuzzes decode (bytes to the Result they lead to) seeded with every
// testdata/*.vec, for a protocol with no real capture committed: a decoded
// input lists at most maxPlayers players (none checked when 0), has no
// negative count and holds valid UTF-8 (FuzzResults); a refused one is fine.
func FuzzVecs(f *testing.F, maxPlayers int, decode ReplyDecoder) {
	FuzzResults(f, slices.Collect(maps.Values(AllVecs(f))), func(t *testing.T, b []byte) *protocols.Result {
		res, err := decode(b)
		if err != nil {
			return nil
		}
		if maxPlayers > 0 && len(res.PlayerList) > maxPlayers {
			t.Fatalf("%d players past the cap %d", len(res.PlayerList), maxPlayers)
		}
		return res
	})
}
