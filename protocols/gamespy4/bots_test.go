package gamespy4

import (
	"testing"

	"github.com/gameserver-exporter/gameserver_exporter/protocols/prototest"
)

// TestBotsMeaning: the GameSpy 4 (Minecraft query) stat carries no bot count
// or flag: Players is numplayers as sent, Bots stays unknown and no listed
// name is marked.
func TestBotsMeaning(t *testing.T) {
	for _, c := range []struct {
		vector   string
		basic    bool
		humans   int64
		complete bool
	}{
		{"full_vanilla", false, 3, true},
		{"full_utf8", false, 32, false}, // numplayers wins over a shorter list
		{"full_motd_nul", false, 0, true},
		{"basic", true, 2, true},
	} {
		t.Run(c.vector, func(t *testing.T) {
			decode := decodeFull
			if c.basic {
				decode = decodeBasic
			}
			st, err := decode(vector(t, c.vector))
			if err != nil {
				t.Fatal(err)
			}
			prototest.CheckBots(t, st.result(true, false), c.humans, prototest.Unknown, c.complete)
		})
	}
}
