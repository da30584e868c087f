package cube2

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/gameserver-exporter/gameserver_exporter/protocols/prototest"
)

// seedCaptures adds the real servers' captures of shared/realworld, when present.
func seedCaptures(f *testing.F, add func(b []byte), prefix string) {
	s := prototest.SharedDir()
	if s == "" {
		return
	}
	files, _ := filepath.Glob(filepath.Join(s, "realworld", "captures", prefix+"*.resp.bin"))
	for _, p := range files {
		if b, err := os.ReadFile(p); err == nil {
			add(b)
		}
	}
}

func seedVectors(f *testing.F, prefixes ...string) [][]byte {
	var out [][]byte
	files, _ := filepath.Glob(filepath.Join("testdata", "*.hex"))
	for _, p := range files {
		for _, pre := range prefixes {
			if strings.HasPrefix(filepath.Base(p), pre) {
				out = append(out, loadHex(f, filepath.Base(p)))
			}
		}
	}
	return out
}

func FuzzDecodeInfo(f *testing.F) {
	add := func(b []byte) {
		n := 1
		if len(b) > 0 && b[0] == 0x81 {
			n = 5
		}
		f.Add(b[:min(n, len(b))], b)
	}
	for _, b := range seedVectors(f, "info_", "bad_") {
		add(b)
	}
	seedCaptures(f, add, "cube2_sauerbraten_cube2-info")
	seedCaptures(f, add, "redeclipse_")
	f.Fuzz(func(t *testing.T, req, b []byte) {
		in, err := decodeInfo(b, req)
		if err != nil {
			return
		}
		if in.Players < 0 || len(in.Attrs) > maxAttrs || len(in.Names) > maxPlayers || len(in.Handles) > maxPlayers {
			t.Fatalf("bad counts %+v", in)
		}
		res := in.Result(true, true)
		for _, s := range []string{res.Name, res.Map, res.Version, res.Game} {
			if !utf8.ValidString(s) {
				t.Fatalf("bad string %q", s)
			}
		}
		for _, p := range res.PlayerList {
			if !utf8.ValidString(p.Name) {
				t.Fatalf("bad name %q", p.Name)
			}
		}
	})
}

func FuzzDecodeExtinfo(f *testing.F) {
	for _, b := range seedVectors(f, "ext_") {
		f.Add(b)
	}
	seedCaptures(f, func(b []byte) { f.Add(b) }, "cube2_sauerbraten_cube2-extinfo")
	f.Fuzz(func(t *testing.T, b []byte) {
		if x, err := decodePlayers(b); err == nil {
			if len(x.IDs) > maxPlayers || !utf8.ValidString(x.Player.Name) || !utf8.ValidString(x.Player.Team) {
				t.Fatalf("bad record %+v", x)
			}
		}
		decodeUptime(b)
	})
}
