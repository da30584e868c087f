package ffow

import (
	"testing"
	"time"

	"github.com/gameserver-exporter/gameserver_exporter/protocols"
	"github.com/gameserver-exporter/gameserver_exporter/protocols/prototest"
)

// TestBotsMeaning: the LSQ info has no bot count and the player record no bot
// mark (qstat, gamedig and GameQ read none): Players is the count as sent, Bots
// stays unknown.
func TestBotsMeaning(t *testing.T) {
	res, _, err := probe(t, prototest.UDP(t, newFake(t).handle), protocols.Settings{Players: true}, 2*time.Second)
	if err != nil {
		t.Fatal(err)
	}
	prototest.CheckBots(t, res, 5, prototest.Unknown, true)
}
