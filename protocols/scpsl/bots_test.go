package scpsl

import (
	"testing"

	"github.com/gameserver-exporter/gameserver_exporter/protocols/prototest"
)

// TestBotsMeaning: the game has no bots and Players' "n" counts the people
// connected: Players is that, Bots stays unknown; the list holds only those
// listed with a nickname.
func TestBotsMeaning(t *testing.T) {
	res, err := decodeVector(prototest.File(t, "serverinfo_basic.json"), 0, 7777, true)
	if err != nil {
		t.Fatal(err)
	}
	prototest.CheckBots(t, res, 12, prototest.Unknown, false)
}
