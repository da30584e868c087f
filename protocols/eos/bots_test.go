package eos

import (
	"net/netip"
	"testing"

	"github.com/gameserver-exporter/gameserver_exporter/protocols/prototest"
)

// TestBotsMeaning: an EOS session counts its players (totalPlayers) and
// knows no bots: Players is that count, Bots stays unknown.
func TestBotsMeaning(t *testing.T) {
	for _, c := range []struct {
		target string
		humans int64
	}{
		{"203.0.113.10:7777", 12},
		{"203.0.113.10:7779", 0},
	} {
		t.Run(c.target, func(t *testing.T) {
			pk, err := decodeSessions(prototest.File(t, "sessions_arksa.json"), netip.MustParseAddrPort(c.target))
			if err != nil || pk.session == nil {
				t.Fatalf("no session: %v", err)
			}
			prototest.CheckBots(t, pk.session.result(presetAttrs("arksa"), false), c.humans, prototest.Unknown, true)
		})
	}
}
