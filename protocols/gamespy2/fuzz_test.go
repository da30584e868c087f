package gamespy2

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"
	"unicode/utf8"

	"github.com/gameserver-exporter/gameserver_exporter/protocols/prototest"
	"github.com/gameserver-exporter/gameserver_exporter/protocols/wire"
)

// sep splits a fuzz input into replies.
var sep = []byte("\n||\n")

// FuzzDecode feeds one or more reply datagrams to the decoder.
func FuzzDecode(f *testing.F) {
	files, _ := filepath.Glob(filepath.Join("testdata", "*.bin"))
	if s := prototest.SharedDir(); s != "" {
		more, _ := filepath.Glob(filepath.Join(s, "fixtures", "gamespy2", "*.bin"))
		files = append(files, more...)
	}
	for _, file := range files {
		if b, err := os.ReadFile(file); err == nil {
			f.Add(b)
		}
	}
	for _, name := range []string{"halo_like", "aa_no_count", "empty_tables"} {
		f.Add(bytes.Join(vector(f, name), sep))
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		res, err := decode(bytes.Split(b, sep)...)
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
		if len(res.PlayerList) > maxRows {
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
