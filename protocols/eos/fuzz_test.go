package eos

import (
	"net/netip"
	"testing"
	"unicode/utf8"

	"github.com/gameserver-exporter/gameserver_exporter/protocols/prototest"
)

// FuzzDecodeSessions checks that no filter answer panics the decoder, that a
// picked session's result keeps its caps, is valid UTF-8 and has no negative count.
func FuzzDecodeSessions(f *testing.F) {
	prototest.SeedFiles(f, "sessions*.json")
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
	prototest.SeedFiles(f, "token*.json")
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
	prototest.SeedFiles(f, "error*.json")
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
