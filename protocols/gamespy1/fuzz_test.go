package gamespy1

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/gameserver-exporter/gameserver_exporter/protocols/prototest"
	"github.com/gameserver-exporter/gameserver_exporter/protocols/wire"
)

// sep splits a fuzz input into datagrams (GameQ's capture separator).
var sep = []byte("\n||\n")

// FuzzDecode feeds one reply of one or more datagrams to the decoder.
func FuzzDecode(f *testing.F) {
	seed := func(dir string) {
		names, _ := filepath.Glob(filepath.Join(dir, "*.1.bin"))
		for _, n := range names {
			f.Add(bytes.Join(readParts(f, dir, strings.TrimSuffix(filepath.Base(n), ".1.bin")), sep))
		}
	}
	seed("testdata")
	if s := prototest.SharedDir(); s != "" {
		dir := filepath.Join(s, "fixtures", "gamespy1")
		files, _ := filepath.Glob(filepath.Join(dir, "*.bin"))
		for _, file := range files {
			if b, err := os.ReadFile(file); err == nil {
				f.Add(b)
			}
		}
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		res, err := decode(bytes.Split(b, sep))
		if res == nil {
			if err == nil {
				t.Fatal("nil result without error")
			}
			return
		}
		if err != nil && wire.Reason(err) != "truncated" {
			t.Fatalf("result with a %s error", wire.Reason(err))
		}
		for _, s := range []string{res.Name, res.Map, res.Game, res.Version} {
			if !utf8.ValidString(s) {
				t.Fatalf("invalid UTF-8 %q", s)
			}
		}
		if len(res.PlayerList) > maxPlayers {
			t.Fatalf("%d players", len(res.PlayerList))
		}
		for _, p := range res.PlayerList {
			if !utf8.ValidString(p.Name) || !utf8.ValidString(p.Team) {
				t.Fatalf("invalid UTF-8 player %q", p.Name)
			}
		}
		for _, kv := range res.Info {
			if !utf8.ValidString(kv.Key) || !utf8.ValidString(kv.Value) {
				t.Fatalf("invalid UTF-8 info %q", kv)
			}
		}
	})
}
