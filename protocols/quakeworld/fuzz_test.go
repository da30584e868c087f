package quakeworld

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/gameserver-exporter/gameserver_exporter/protocols/internal/idtech"
	"github.com/gameserver-exporter/gameserver_exporter/protocols/prototest"
)

// FuzzDecode checks that no datagram panics the decoder or breaks its caps and
// that everything it returns is valid UTF-8. Seeds: testdata/, and the real
// mvdsv captures in ../shared when present.
func FuzzDecode(f *testing.F) {
	seeds, _ := filepath.Glob("testdata/*.bin")
	if s := prototest.SharedDir(); s != "" {
		rw, _ := filepath.Glob(filepath.Join(s, "realworld", "captures", "quakeworld_*.resp.bin"))
		seeds = append(seeds, rw...)
	}
	for _, p := range seeds {
		b, err := os.ReadFile(p)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(b)
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		r, err := decode(b)
		if err != nil {
			if r != nil {
				t.Fatal("reply and error")
			}
			return
		}
		if len(r.Players)+r.Unparsed > idtech.MaxPlayerLines || len(r.Pairs) > idtech.MaxInfoPairs {
			t.Fatalf("caps exceeded: %d players, %d unparsed, %d info", len(r.Players), r.Unparsed, len(r.Pairs))
		}
		res := r.result(true, true)
		prototest.CheckUTF8(t, res)
		if !res.Players.Known || res.Players.Value < 0 || res.Players.Value != int64(len(res.PlayerList)) {
			t.Fatalf("players %+v, %d listed", res.Players, len(res.PlayerList))
		}
	})
}
