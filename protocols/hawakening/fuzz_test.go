package hawakening

import (
	"strings"
	"testing"

	"github.com/gameserver-exporter/gameserver_exporter/protocols/prototest"
)

// FuzzDecode checks that no answer panics the decoders, that a grant taken
// is a header value, and that every server mapped gives a valid UTF-8 result
// with counts in range.
func FuzzDecode(f *testing.F) {
	prototest.SeedFiles(f, "*.json")
	f.Fuzz(func(t *testing.T, b []byte) {
		env, err := parseEnvelope(b)
		if err != nil {
			return
		}
		if g, err := grantOf(env, 200, user, "pw"); err == nil && (g == "" || len(g) > maxGrantLen || strings.ContainsAny(g, "\r\n")) {
			t.Fatalf("grant %q", g)
		}
		l, err := listingsOf(env, 200)
		if err != nil {
			return
		}
		for i := range l {
			res, err := l[i].result()
			if err != nil {
				continue
			}
			prototest.CheckUTF8(t, res)
			if res.Players.Value < 0 || res.Players.Value > maxUsers || res.MaxPlayers.Value < 0 || res.MaxPlayers.Value > maxUsers || res.Bots.Known {
				t.Fatalf("players %+v, max %+v", res.Players, res.MaxPlayers)
			}
		}
	})
}
