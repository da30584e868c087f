package farmingsimulator

import (
	"testing"

	"github.com/gameserver-exporter/gameserver_exporter/protocols"
	"github.com/gameserver-exporter/gameserver_exporter/protocols/prototest"
)

// TestBotsMeaning: numUsed counts the used slots; the game has no bot players
// (its helpers take no slot) and the feed marks none.
func TestBotsMeaning(t *testing.T) {
	res, _, err := query(t, fake(t, "fs22.xml"), protocols.Settings{Players: true, Options: withCode(testCode)})
	if err != nil {
		t.Fatal(err)
	}
	prototest.CheckBots(t, res, 2, prototest.Unknown, true)
}
