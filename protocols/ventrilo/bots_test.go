package ventrilo

import (
	"testing"
	"time"

	"github.com/gameserver-exporter/gameserver_exporter/protocols/prototest"
)

// TestBotsMeaning: a voice server has no bots; CLIENTCOUNT counts the connected
// clients (phantoms, a user's presence in a second channel, are clients too):
// Players is the count as sent, Bots stays unknown.
func TestBotsMeaning(t *testing.T) {
	f := &fake{body: text(t, "status")}
	res, _, err := probe(t, prototest.UDP(t, f.handle), settings(true, ""), 2*time.Second)
	if err != nil {
		t.Fatal(err)
	}
	prototest.CheckBots(t, res, 3, prototest.Unknown, true)
}
