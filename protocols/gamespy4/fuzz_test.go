package gamespy4

import (
	"os"
	"path/filepath"
	"testing"
	"unicode/utf8"

	"github.com/gameserver-exporter/gameserver_exporter/protocols/prototest"
	"github.com/gameserver-exporter/gameserver_exporter/protocols/wire"
)

// seeds adds every testdata vector and the Minecraft Query captures.
func seeds(f *testing.F) {
	files, _ := filepath.Glob(filepath.Join("testdata", "*.bin"))
	if s := prototest.SharedDir(); s != "" {
		for _, pat := range []string{"minecraft_*.bin", "pocketmine_*.bin", "mcstatus_*.bin"} {
			more, _ := filepath.Glob(filepath.Join(s, "fixtures", fixtureProto, pat))
			files = append(files, more...)
		}
	}
	for _, file := range files {
		if b, err := os.ReadFile(file); err == nil {
			f.Add(b)
		}
	}
}

func check(t *testing.T, st *stat, err error) {
	if st == nil {
		if err == nil {
			t.Fatal("nil stat without error")
		}
		return
	}
	if err != nil && wire.Reason(err) != "truncated" {
		t.Fatalf("stat with a %s error", wire.Reason(err))
	}
	if len(st.players) > maxNames || len(st.kv) > maxPairs {
		t.Fatalf("%d players, %d pairs", len(st.players), len(st.kv))
	}
	res := st.result(true, true)
	for _, s := range []string{res.Name, res.Map, res.Game, res.Version} {
		if !utf8.ValidString(s) {
			t.Fatalf("invalid UTF-8 %q", s)
		}
	}
	for _, p := range res.PlayerList {
		if !utf8.ValidString(p.Name) {
			t.Fatalf("invalid UTF-8 player %q", p.Name)
		}
	}
	for _, kv := range res.Info {
		if !utf8.ValidString(kv.Key) || !utf8.ValidString(kv.Value) {
			t.Fatalf("invalid UTF-8 info %q", kv)
		}
	}
}

// FuzzDecodeFull feeds one datagram to the full-stat decoder.
func FuzzDecodeFull(f *testing.F) {
	seeds(f)
	f.Fuzz(func(t *testing.T, b []byte) {
		st, err := decodeFull(b)
		check(t, st, err)
	})
}

// FuzzDecodeBasic feeds one datagram to the basic-stat decoder.
func FuzzDecodeBasic(f *testing.F) {
	seeds(f)
	f.Fuzz(func(t *testing.T, b []byte) {
		st, err := decodeBasic(b)
		check(t, st, err)
	})
}
