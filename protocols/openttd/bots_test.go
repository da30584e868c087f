package openttd

import (
	"testing"

	"github.com/gameserver-exporter/gameserver_exporter/protocols/prototest"
)

// TestBotsMeaning: Players is the network clients on; AI companies are
// companies, not clients, so there is no bot count.
func TestBotsMeaning(t *testing.T) {
	g, err := decodePacket(prototest.HexFile(t, "v6_password_newgrf.hex"))
	if err != nil {
		t.Fatal(err)
	}
	prototest.CheckBots(t, g.Result(false), int64(g.ClientsOn), prototest.Unknown, true)
}
