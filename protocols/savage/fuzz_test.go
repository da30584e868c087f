package savage

import (
	"regexp"
	"testing"

	"github.com/gameserver-exporter/gameserver_exporter/protocols"
	"github.com/gameserver-exporter/gameserver_exporter/protocols/prototest"
)

// No real Savage capture exists (spec §7): the seeds are the own vectors.
func FuzzDecode(f *testing.F) {
	var seeds [][]byte
	for _, b := range prototest.AllVecs(f) {
		seeds = append(seeds, b)
	}
	prototest.FuzzResults(f, seeds, func(t *testing.T, b []byte) *protocols.Result {
		r, err := decode(b)
		if err != nil {
			return nil
		}
		res := r.Result(true, true)
		if len(res.PlayerList) > maxPlayers {
			t.Fatalf("%d players past the cap", len(res.PlayerList))
		}
		for _, p := range res.PlayerList {
			if p.Name == "" {
				t.Fatal("empty player name")
			}
		}
		return res
	})
}

// specColour is the stripping rule as the spec writes it (§5). Like any single-pass
// replace it is not idempotent: "^^AA" leaves "^A" (a fuzz find, kept in testdata/fuzz).
var specColour = regexp.MustCompile(`\^([0-9]{3}|[a-zA-Z])`)

// FuzzStrip checks the hand-written strip against the spec's regular expression.
func FuzzStrip(f *testing.F) {
	for _, s := range []string{"^yName", "^900XR ^g1.3", "^^AA0", "^12x", "a^", "^1234", "Caf\xe9^"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if got, want := strip(s), specColour.ReplaceAllString(s, ""); got != want {
			t.Fatalf("Strip(%q) = %q, regexp gives %q", s, got, want)
		}
	})
}
