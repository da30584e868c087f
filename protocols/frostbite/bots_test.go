package frostbite

import (
	"testing"

	"github.com/gameserver-exporter/gameserver_exporter/protocols/prototest"
)

// TestBotsMeaning: serverInfo counts players and knows no bots: Players is
// its count as sent, Bots stays unknown.
func TestBotsMeaning(t *testing.T) {
	for _, c := range []struct {
		vector string
		humans int64
	}{
		{"ok_bf4", 48},
		{"ok_bf3", 12},
		{"ok_bc2", 24},
	} {
		t.Run(c.vector, func(t *testing.T) {
			res, err := decodeReply(vector(t, c.vector))
			if err != nil {
				t.Fatal(err)
			}
			prototest.CheckBots(t, res, c.humans, prototest.Unknown, true)
		})
	}
}
