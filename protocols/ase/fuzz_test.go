package ase

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/gameserver-exporter/gameserver_exporter/protocols"
	"github.com/gameserver-exporter/gameserver_exporter/protocols/prototest"
)

// seeds are the own vectors, the real captures when ../shared is present and a
// split reply.
func seeds(f *testing.F) [][]byte {
	var out [][]byte
	for _, b := range prototest.AllVecs(f) {
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
	return append(out, split(bigReply(60), "idid")...)
}

func FuzzDecode(f *testing.F) {
	prototest.FuzzResults(f, seeds(f), func(t *testing.T, b []byte) *protocols.Result {
		s, err := decode(b)
		if err != nil {
			return nil
		}
		r := s.Result(true, true)
		if len(r.PlayerList) > maxPlayers {
			t.Fatalf("%d players past the cap", len(r.PlayerList))
		}
		return r
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
