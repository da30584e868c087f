package frostbite

import (
	"testing"
	"unicode/utf8"

	"github.com/gameserver-exporter/gameserver_exporter/protocols/prototest"
	"github.com/gameserver-exporter/gameserver_exporter/protocols/wire"
)

// FuzzDecodeReply checks that no packet panics the decoder, that every error
// names one reason, and that a result has sane counts and UTF-8.
func FuzzDecodeReply(f *testing.F) {
	prototest.SeedHex(f, "bad_", "error_", "ok_")
	f.Fuzz(func(t *testing.T, b []byte) {
		res, err := decodeReply(b)
		if err != nil {
			if r := wire.Reason(err); r == "other" || r == "" {
				t.Fatalf("error without a reason: %v", err)
			}
			if res != nil {
				t.Fatalf("result %+v with error %v", res, err)
			}
			return
		}
		if res.Players.Value < 0 || res.MaxPlayers.Value < 0 {
			t.Fatalf("negative counts %+v", res)
		}
		prototest.CheckUTF8(t, res)
	})
}

// FuzzDecodeVersion: no packet panics the version decoder, every error names one
// reason, and what it returns is UTF-8.
func FuzzDecodeVersion(f *testing.F) {
	prototest.SeedHex(f, "version_")
	f.Fuzz(func(t *testing.T, b []byte) {
		p, err := decodePacket(b)
		if err != nil {
			return
		}
		game, build, err := decodeVersion(p.words)
		if err != nil {
			if r := wire.Reason(err); r == "other" || r == "" {
				t.Fatalf("error without a reason: %v", err)
			}
			return
		}
		if !utf8.ValidString(game) || !utf8.ValidString(build) {
			t.Fatalf("invalid UTF-8 %q %q", game, build)
		}
	})
}
