package darkplaces

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/gameserver-exporter/gameserver_exporter/protocols/internal/idtech"
	"github.com/gameserver-exporter/gameserver_exporter/protocols/prototest"
)

// FuzzDecode checks that no datagram panics the decoder or breaks its caps and
// that everything it returns is valid UTF-8. Seeds: testdata/, and the real
// Nexuiz captures and the quake3 fixtures in ../shared when present.
func FuzzDecode(f *testing.F) {
	seeds, _ := filepath.Glob("testdata/*.bin")
	if s := prototest.SharedDir(); s != "" {
		rw, _ := filepath.Glob(filepath.Join(s, "realworld", "captures", "nexuiz_*.resp.bin"))
		fx, _ := filepath.Glob(filepath.Join(s, "fixtures", "quake3", "*.bin"))
		seeds = append(append(seeds, rw...), fx...)
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
		if res.Players.Known && res.Players.Value < 0 || res.Bots.Known && res.Bots.Value < 0 {
			t.Fatalf("negative count %+v %+v", res.Players, res.Bots)
		}
		if r.full() != (res.PlayerList != nil) || r.full() == (len(res.PhaseErrors) == 1) {
			t.Fatalf("full %v, list %v, phase errors %v", r.full(), res.PlayerList, res.PhaseErrors)
		}
	})
}
