package teamspeak2

import (
	"testing"
	"time"

	"github.com/gameserver-exporter/gameserver_exporter/protocols"
	"github.com/gameserver-exporter/gameserver_exporter/protocols/prototest"
)

// TestBotsMeaning: a voice server has no bots; si's server_currentusers is the
// clients on the virtual server, Bots stays unknown and no listed player is
// marked.
func TestBotsMeaning(t *testing.T) {
	f := newFake(t)
	res, _, err := probe(t, f.start(t), voice, protocols.Settings{Players: true}, 2*time.Second)
	if err != nil {
		t.Fatal(err)
	}
	prototest.CheckBots(t, res, 3, prototest.Unknown, true)
}
