package skycoop

import (
	"testing"

	"github.com/gameserver-exporter/gameserver_exporter/protocols/prototest"
)

// TestBotsMeaning: the mod counts its clients (RCON sessions included) and
// has no bots.
func TestBotsMeaning(t *testing.T) {
	st, err := decodeReply(loadHex(t, "spec_worked_srv.hex"), defaultPacketID)
	if err != nil {
		t.Fatal(err)
	}
	prototest.CheckBots(t, st.Result(true), 1, prototest.Unknown, true)
}
