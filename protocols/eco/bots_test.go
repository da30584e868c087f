package eco

import (
	"testing"

	"github.com/gameserver-exporter/gameserver_exporter/protocols"
	"github.com/gameserver-exporter/gameserver_exporter/protocols/prototest"
)

// TestBotsMeaning: OnlinePlayers counts connected players; Eco has no bots.
func TestBotsMeaning(t *testing.T) {
	res, _, err := prototest.QueryOnce(t, newQuerier, prototest.StatusPages(t, map[string]string{"/info": "info.json"}), protocols.Settings{Players: true})
	if err != nil {
		t.Fatal(err)
	}
	prototest.CheckBots(t, res, 3, prototest.Unknown, true)
}
