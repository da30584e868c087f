package samp

import (
	"os"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/gameserver-exporter/gameserver_exporter/protocols/wire"
)

// FuzzDecode feeds one datagram to every decoder: no input panics one, every
// error names one reason, and a result is UTF-8 with counts in range.
func FuzzDecode(f *testing.F) {
	entries, err := os.ReadDir("testdata")
	if err != nil {
		f.Fatal(err)
	}
	for _, e := range entries {
		if name, ok := strings.CutSuffix(e.Name(), ".hex"); ok {
			f.Add(vec(f, name))
		}
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		check := func(err error) bool {
			if err != nil {
				if r := wire.Reason(err); r == "" || r == "other" {
					t.Fatalf("error without a reason: %v", err)
				}
				return false
			}
			return true
		}
		if len(b) < headerLen {
			return // answers skips it before any decoder sees it
		}
		for _, vcmp := range []bool{false, true} {
			in, err := decodeInfo(b, vcmp)
			if check(err) {
				res := (&status{variant: variantVCMP, in: in}).result(wire.UTF8, true)
				if res.Players.Value < 0 || res.Players.Value > 65535 || !utf8.ValidString(res.Name+res.Game+res.Map+res.Version) {
					t.Fatalf("result %+v", res)
				}
			}
			for _, op := range []byte{opDetailed, opClients} {
				ps, err := decodePlayers(b, op, vcmp)
				if check(err) {
					for _, p := range playerList(ps, wire.Windows1251) {
						if !utf8.ValidString(p.Name) {
							t.Fatalf("player %q", p.Name)
						}
					}
				}
			}
		}
		if rules, err := decodeRules(b); check(err) && len(rules) > maxRules {
			t.Fatalf("%d rules", len(rules))
		}
		_, err := decodeExtra(b)
		check(err)
	})
}
