package eos

import (
	"net/netip"
	"os"
	"path/filepath"
	"testing"
	"unicode/utf8"

	"github.com/gameserver-exporter/gameserver_exporter/protocols/prototest"
)

func seeds(f *testing.F, glob string) {
	files, _ := filepath.Glob(filepath.Join("testdata", glob))
	for _, p := range files {
		b, err := os.ReadFile(p)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(b)
	}
}

// FuzzDecodeSessions checks that no filter answer panics the decoder, that a
// picked session's result keeps its caps, is valid UTF-8 and has no negative count.
func FuzzDecodeSessions(f *testing.F) {
	seeds(f, "sessions*.json")
	targets := []netip.AddrPort{netip.MustParseAddrPort("203.0.113.10:7777"), netip.MustParseAddrPort("203.0.113.20:7777"), netip.MustParseAddrPort("203.0.113.30:7787")}
	f.Fuzz(func(t *testing.T, b []byte) {
		for _, target := range targets {
			pk, err := decodeSessions(b, target)
			if err != nil || pk.session == nil {
				continue
			}
			for _, preset := range []string{"arksa", "squad"} { // squad: players from an attribute
				res := pk.session.result(presetAttrs(preset), true)
				prototest.CheckUTF8(t, res)
				if len(res.Rules) > maxAttributes || len(res.Info) > maxAttributes+1 {
					t.Fatalf("%d rules, %d info", len(res.Rules), len(res.Info))
				}
				if res.Players.Value < 0 || res.MaxPlayers.Value < 0 {
					t.Fatalf("negative count %+v %+v", res.Players, res.MaxPlayers)
				}
			}
		}
	})
}

// FuzzDecodeToken checks the token answer: no panic, and a token that is safe
// in a header.
func FuzzDecodeToken(f *testing.F) {
	seeds(f, "token*.json")
	f.Fuzz(func(t *testing.T, b []byte) {
		token, life, err := decodeToken(b)
		if err != nil {
			return
		}
		if token == "" || len(token) > maxTokenLen || life < 0 || life > maxTokenLife {
			t.Fatalf("token %q life %v", token, life)
		}
		for i := 0; i < len(token); i++ {
			if token[i] <= ' ' || token[i] >= 0x7f {
				t.Fatalf("token byte %d = %#x", i, token[i])
			}
		}
	})
}

// FuzzErrorCode checks that an error code is only ever code characters.
func FuzzErrorCode(f *testing.F) {
	seeds(f, "error*.json")
	f.Fuzz(func(t *testing.T, b []byte) {
		code := errorCode(b)
		if len(code) > 120 || !utf8.ValidString(code) {
			t.Fatalf("code %q", code)
		}
		for _, r := range code {
			if !(r == '.' || r == '_' || r == '-' || r == ':' || '0' <= r && r <= '9' || 'a' <= r && r <= 'z' || 'A' <= r && r <= 'Z') {
				t.Fatalf("code %q", code)
			}
		}
	})
}
