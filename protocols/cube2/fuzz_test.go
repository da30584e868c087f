package cube2

import (
	"testing"
	"unicode/utf8"

	"github.com/gameserver-exporter/gameserver_exporter/protocols/prototest"
)

func FuzzDecodeInfo(f *testing.F) {
	add := func(b []byte) {
		n := 1
		if len(b) > 0 && b[0] == 0x81 {
			n = 5
		}
		f.Add(b[:min(n, len(b))], b)
	}
	for _, b := range prototest.HexFiles(f, "info_", "bad_") {
		add(b)
	}
	for _, b := range prototest.Captures("cube2_sauerbraten_cube2-info" + "*.resp.bin") {
		add(b)
	}
	for _, b := range prototest.Captures("redeclipse_" + "*.resp.bin") {
		add(b)
	}
	f.Fuzz(func(t *testing.T, req, b []byte) {
		in, err := decodeInfo(b, req)
		if err != nil {
			return
		}
		if in.Players < 0 || len(in.Attrs) > maxAttrs || len(in.Names) > maxPlayers || len(in.Handles) > maxPlayers {
			t.Fatalf("bad counts %+v", in)
		}
		prototest.CheckUTF8(t, in.Result(true, true))
	})
}

func FuzzDecodeExtinfo(f *testing.F) {
	for _, b := range prototest.HexFiles(f, "ext_") {
		f.Add(b)
	}
	for _, b := range prototest.Captures("cube2_sauerbraten_cube2-extinfo" + "*.resp.bin") {
		f.Add(b)
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		if x, err := decodePlayers(b); err == nil {
			if len(x.IDs) > maxPlayers || !utf8.ValidString(x.Player.Name) || !utf8.ValidString(x.Player.Team) {
				t.Fatalf("bad record %+v", x)
			}
		}
		decodeUptime(b)
	})
}
