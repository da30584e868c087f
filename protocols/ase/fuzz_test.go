package ase

import (
	"os"
	"path/filepath"
	"testing"
	"unicode/utf8"

	"github.com/gameserver-exporter/gameserver_exporter/protocols/prototest"
)

// seeds adds the own vectors and, when ../shared is present, the real captures.
func seeds(f *testing.F) [][]byte {
	var out [][]byte
	for _, b := range allVecs(f) {
		out = append(out, b)
	}
	if d := prototest.SharedDir(); d != "" {
		files, _ := filepath.Glob(filepath.Join(d, "fixtures", "ase", "*.bin"))
		for _, p := range files {
			if b, err := os.ReadFile(p); err == nil {
				out = append(out, b)
			}
		}
	}
	out = append(out, split(bigReply(60), "idid")...)
	return out
}

func FuzzDecode(f *testing.F) {
	for _, b := range seeds(f) {
		f.Add(b)
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		s, err := decode(b)
		if err != nil {
			return
		}
		r := s.Result(true, true)
		for _, v := range []string{r.Name, r.Map, r.Game, r.Version} {
			if !utf8.ValidString(v) {
				t.Fatalf("invalid UTF-8 %q", v)
			}
		}
		if len(r.PlayerList) > maxPlayers {
			t.Fatalf("%d players past the cap", len(r.PlayerList))
		}
		for _, p := range r.PlayerList {
			if !utf8.ValidString(p.Name) || !utf8.ValidString(p.Team) {
				t.Fatalf("invalid UTF-8 player %q", p.Name)
			}
		}
	})
}

// FuzzFragments feeds a datagram, split at an arbitrary point into two, through the
// fragment classifier and assembler.
func FuzzFragments(f *testing.F) {
	for _, b := range seeds(f) {
		f.Add(b, uint16(len(b)/2))
	}
	f.Fuzz(func(t *testing.T, b []byte, cut uint16) {
		c := int(cut) % (len(b) + 1)
		var a assembler
		for _, d := range [][]byte{b[:c], b[c:], b} {
			fr, single, err := parseFragment(d)
			if err != nil || single {
				continue
			}
			a.add(fr)
			if a.have > maxFragments {
				t.Fatalf("%d fragments stored", a.have)
			}
		}
		if m := a.missing(); a.complete() && len(m) != 0 {
			t.Fatalf("complete yet missing %v", m)
		}
		decode(a.body())
	})
}
