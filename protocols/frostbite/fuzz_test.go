package frostbite

import (
	"testing"
	"unicode/utf8"

	"github.com/gameserver-exporter/gameserver_exporter/protocols/prototest"
)

// FuzzDecodeReply checks that no packet panics the decoder, that every error
// names one reason, and that a result has sane counts and UTF-8.
func FuzzDecodeReply(f *testing.F) {
	prototest.SeedHex(f, "bad_", "error_", "ok_")
	prototest.FuzzDecoder(f, nil, decodeReply)
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
			prototest.CheckReason(t, err)
			return
		}
		if !utf8.ValidString(game) || !utf8.ValidString(build) {
			t.Fatalf("invalid UTF-8 %q %q", game, build)
		}
	})
}

// FuzzDecodePlayers: no packet panics the player list decoder, every error
// names one reason, and the players' names are UTF-8.
func FuzzDecodePlayers(f *testing.F) {
	prototest.SeedHex(f, "players_")
	prototest.FuzzPlayers(f, nil, decodePlayerPacket)
}
