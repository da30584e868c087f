package doom3

import (
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/gameserver-exporter/gameserver_exporter/protocols/prototest"
)

// fuzzSeeds are the own vectors and, when ../shared is present, the real captures.
func fuzzSeeds(f *testing.F) {
	for _, name := range vectorNames(f) {
		f.Add(vector(f, name))
	}
	for _, b := range prototest.SharedFiles("fixtures/doom3/*.bin") {
		f.Add(b)
	}
}

func FuzzDecode(f *testing.F) {
	fuzzSeeds(f)
	f.Fuzz(func(t *testing.T, b []byte) {
		rep, err := decode(b)
		if rep == nil {
			if err == nil {
				t.Fatal("nil reply without error")
			}
			return
		}
		if len(rep.Info) > maxPairs || len(rep.Players) > asyncClients {
			t.Fatalf("%d pairs, %d players", len(rep.Info), len(rep.Players))
		}
		res := rep.Result(true, true)
		prototest.CheckUTF8(t, res)
		if err == nil && rep.PlayersErr == nil && res.Players.Value+res.Bots.Value != int64(len(rep.Players)) {
			t.Fatalf("players %d and bots %d for %d records", res.Players.Value, res.Bots.Value, len(rep.Players))
		}
	})
}

func FuzzClean(f *testing.F) {
	for _, s := range []string{"^1Red", "^c014-^Iw05x", "^", "a^ b", "^^^", "\xc7^\xe9"} {
		f.Add(s, true)
		f.Add(s, false)
	}
	f.Fuzz(func(t *testing.T, s string, q4 bool) {
		got := clean(s, q4)
		if len(got) > len(s) || (utf8.ValidString(s) && !utf8.ValidString(got)) {
			t.Fatalf("Clean(%q) = %q", s, got)
		}
		if !strings.Contains(s, "^") && got != s {
			t.Fatalf("Clean(%q) changed a string without ^", s)
		}
	})
}
