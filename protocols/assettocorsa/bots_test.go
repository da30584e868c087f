package assettocorsa

import (
	"testing"

	"github.com/gameserver-exporter/gameserver_exporter/protocols"
	"github.com/gameserver-exporter/gameserver_exporter/protocols/prototest"
)

// TestBotsMeaning: clients counts connected drivers; a dedicated server runs no
// AI cars and the entry list marks none.
func TestBotsMeaning(t *testing.T) {
	res, _, err := query(t, fake(t, "info.json", "entry_list.json"), protocols.Settings{Players: true})
	if err != nil {
		t.Fatal(err)
	}
	prototest.CheckBots(t, res, 2, prototest.Unknown, true)
}
