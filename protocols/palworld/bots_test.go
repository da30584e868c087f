package palworld

import (
	"testing"
	"time"

	"github.com/gameserver-exporter/gameserver_exporter/protocols"
	"github.com/gameserver-exporter/gameserver_exporter/protocols/prototest"
)

// TestBotsMeaning: the REST API counts connected players (metrics'
// currentplayernum) and lists them; Palworld has no bot players, and nothing
// in the replies marks one: Players is the count as sent, Bots stays unknown
// and no listed player is marked.
func TestBotsMeaning(t *testing.T) {
	res, _, err := query(t, fakePalworld(t, nil), protocols.Settings{Players: true, Options: withPassword(testPassword)}, 2*time.Second)
	if err != nil {
		t.Fatal(err)
	}
	if len(res.PlayerList) != 2 {
		t.Fatalf("player list %+v, want 2 entries", res.PlayerList)
	}
	prototest.CheckBots(t, res, 2, prototest.Unknown, true)
}
