package starmade

import (
	"testing"
	"time"

	"github.com/gameserver-exporter/gameserver_exporter/protocols/prototest"
)

// TestBotsMeaning: the status reports connected players only (StarMade's AI
// ships are no players) and no bot count: Players is the count as sent, Bots
// stays unknown.
func TestBotsMeaning(t *testing.T) {
	res, _, err := probe(t, server(t, vec(t, "status_default")), 2*time.Second)
	if err != nil {
		t.Fatal(err)
	}
	prototest.CheckBots(t, res, 3, prototest.Unknown, false)
}
