package samp

import (
	"testing"
	"time"

	"github.com/gameserver-exporter/gameserver_exporter/protocols"
	"github.com/gameserver-exporter/gameserver_exporter/protocols/prototest"
)

// TestBotsMeaning: the query tells no NPC from a player (open.mp counts its bots
// among the players and lists them alike, taking them off the max): Players is
// the info's count as sent, Bots stays unknown and no listed player is marked.
func TestBotsMeaning(t *testing.T) {
	for _, variant := range []string{"samp", "openmp", "vcmp"} {
		t.Run(variant, func(t *testing.T) {
			f := sampServer(t)
			switch variant {
			case "openmp":
				f = openMPServer(t)
			case "vcmp":
				f = vcmpServer(t)
			}
			res, _, err := prototest.QueryNew(t, Protocol, f.start(t), with(protocols.Settings{Players: true}, variant, ""), 2*time.Second)
			if err != nil {
				t.Fatal(err)
			}
			prototest.CheckBots(t, res, res.Players.Value, prototest.Unknown, true)
			if !res.Players.Known || res.Players.Value == 0 {
				t.Errorf("players %+v", res.Players)
			}
		})
	}
}
