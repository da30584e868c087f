package a2s

import (
	"testing"

	"github.com/gameserver-exporter/gameserver_exporter/protocols"
	"github.com/gameserver-exporter/gameserver_exporter/protocols/prototest"
)

// TestGamedig queries the same fake Source server (its A2S_INFO and A2S_PLAYER
// behind a challenge) with gamedig (npm, protocol-valve) and the Querier with
// players: name, map, version, counts and player names agree.
func TestGamedig(t *testing.T) {
	f := &fake{Info: one(readHex(t, "info_no_edf.hex")), Players: one(readHex(t, "player_basic.hex")), InfoChallenge: true}
	gd, res := prototest.GamedigQuery(t, "protocol-valve", nil, Protocol, protocols.Settings{Players: true}, f.Start(t))
	prototest.GamedigAgrees(t, gd, res)
}
