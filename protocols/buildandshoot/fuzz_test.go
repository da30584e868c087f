package buildandshoot

import (
	"errors"
	"os"
	"path/filepath"
	"testing"
	"unicode/utf8"

	"github.com/gameserver-exporter/gameserver_exporter/protocols/wire"
)

func FuzzDecode(f *testing.F) {
	files, _ := filepath.Glob(filepath.Join("testdata", "*.json"))
	for _, p := range files {
		b, err := os.ReadFile(p)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(b)
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		in, err := decode(b)
		if err != nil {
			if !errors.Is(err, wire.ErrMalformed) {
				t.Fatalf("error is not malformed: %v", err)
			}
			return
		}
		res := in.result(true)
		if len(res.PlayerList) > maxPlayers {
			t.Fatalf("%d players past the cap", len(res.PlayerList))
		}
		if res.Players.Value < 0 || res.MaxPlayers.Value < 0 {
			t.Fatalf("negative counts %+v", res)
		}
		for _, p := range res.PlayerList {
			if !utf8.ValidString(p.Name) {
				t.Fatalf("invalid UTF-8 %q", p.Name)
			}
		}
	})
}
