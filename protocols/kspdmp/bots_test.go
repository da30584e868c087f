package kspdmp

import (
	"testing"

	"github.com/gameserver-exporter/gameserver_exporter/protocols"
	"github.com/gameserver-exporter/gameserver_exporter/protocols/prototest"
)

// TestBotsMeaning: player_count counts the connected players; KSP has no bots.
func TestBotsMeaning(t *testing.T) {
	res, _, err := prototest.QueryOnce(t, newQuerier, prototest.StatusPages(t, map[string]string{"/": "status.json"}), protocols.Settings{Players: true})
	if err != nil {
		t.Fatal(err)
	}
	prototest.CheckBots(t, res, 2, prototest.Unknown, true)
}
