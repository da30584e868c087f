package savage

import (
	"testing"

	"github.com/gameserver-exporter/gameserver_exporter/protocols/prototest"
)

// TestBotsMeaning: cnum counts the clients; Savage has no bots to tell apart.
func TestBotsMeaning(t *testing.T) {
	r, err := decode(prototest.VecFile(t, "ext_basic"))
	if err != nil {
		t.Fatal(err)
	}
	prototest.CheckBots(t, r.Result(true, false), 3, prototest.Unknown, true)
}
