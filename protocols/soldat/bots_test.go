package soldat

import (
	"testing"
	"time"

	"github.com/gameserver-exporter/gameserver_exporter/protocols/prototest"
)

// TestBotsMeaning: REFRESHX gives a bot's slot no address (Rcon.pas fills the IP
// only for a HUMAN control method): Players counts the slots with one
// (spectators included), Bots the slots without, and the listed bots are marked.
func TestBotsMeaning(t *testing.T) {
	f := &fake{record: vec(t, "refreshx_ctf")}
	s := withPassword(adminPassword)
	s.Players = true
	res, _, err := probe(t, f.start(t), s, 2*time.Second)
	if err != nil {
		t.Fatal(err)
	}
	prototest.CheckBots(t, res, 2, 1, true)
}
