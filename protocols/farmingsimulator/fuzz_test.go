package farmingsimulator

import (
	"errors"
	"os"
	"path/filepath"
	"testing"
	"unicode/utf8"

	"github.com/gameserver-exporter/gameserver_exporter/protocols/wire"
)

func FuzzDecode(f *testing.F) {
	files, _ := filepath.Glob(filepath.Join("testdata", "*.xml"))
	for _, p := range files {
		b, err := os.ReadFile(p)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(b)
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		s, err := decode(b)
		if err != nil {
			if !errors.Is(err, wire.ErrMalformed) {
				t.Fatalf("error is not malformed: %v", err)
			}
			return
		}
		res := s.result(true)
		if len(res.PlayerList) > maxPlayers || len(res.Mods) > maxMods {
			t.Fatalf("%d players, %d mods past the caps", len(res.PlayerList), len(res.Mods))
		}
		for _, v := range []string{res.Name, res.Map, res.Game} {
			if !utf8.ValidString(v) {
				t.Fatalf("invalid UTF-8 %q", v)
			}
		}
	})
}
