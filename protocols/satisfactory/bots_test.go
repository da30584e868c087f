package satisfactory

import (
	"testing"

	"github.com/gameserver-exporter/gameserver_exporter/protocols/prototest"
)

// TestBotsMeaning: the Lightweight Query API reports no player count at all,
// so neither players nor bots.
func TestBotsMeaning(t *testing.T) {
	resp, err := decode(prototest.HexFile(t, "playing_djwoodz.hex"))
	if err != nil {
		t.Fatal(err)
	}
	prototest.CheckBots(t, resp.Result(), prototest.Unknown, prototest.Unknown, true)
}
