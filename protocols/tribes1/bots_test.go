package tribes1

import (
	"testing"

	"github.com/gameserver-exporter/gameserver_exporter/protocols/prototest"
)

// TestBotsMeaning: the players byte counts the clients; neither layout marks bots.
func TestBotsMeaning(t *testing.T) {
	for _, vec := range []string{"tribes", "starsiege"} {
		r, err := decode(readVec(t, vec))
		if err != nil {
			t.Fatal(err)
		}
		prototest.CheckBots(t, r.Result(true, false), 2, prototest.Unknown, true)
	}
}
