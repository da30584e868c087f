package fivem

import (
	"testing"
	"time"

	"github.com/gameserver-exporter/gameserver_exporter/protocols"
	"github.com/gameserver-exporter/gameserver_exporter/protocols/prototest"
	"github.com/gameserver-exporter/gameserver_exporter/protocols/wire"
)

// TestBotsMeaning: FXServer's getinfo counts connected clients and
// players.json lists them; neither knows bots (NPCs are no clients): Players
// is `clients` as sent, Bots stays unknown and no listed player is marked.
func TestBotsMeaning(t *testing.T) {
	addr := fxServer(t, answer, fxMux(jsonHandler(playersBody), jsonHandler(infoBody)))
	res, err := prototest.MustNew(t, Protocol, protocols.Settings{Players: true}).Query(prototest.Context(t, 2*time.Second), protocols.At(addr), wire.NewTrace())
	if err != nil {
		t.Fatal(err)
	}
	if len(res.PlayerList) != 2 {
		t.Fatalf("player list %+v, want 2 entries", res.PlayerList)
	}
	prototest.CheckBots(t, res, 2, prototest.Unknown, true)
}
