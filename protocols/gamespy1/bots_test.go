package gamespy1

import (
	"testing"

	"github.com/gameserver-exporter/gameserver_exporter/protocols/prototest"
)

// TestBotsMeaning: GameSpy 1 replies carry no bot count. Stock Unreal
// Tournament counts and lists its human players only (numplayers is
// GameInfo.NumPlayers, the list its PlayerPawns), so Players is numplayers as
// sent, Bots stays unknown and no list entry is marked.
func TestBotsMeaning(t *testing.T) {
	for vector, humans := range map[string]int64{"ut_shuffled": 3, "bf_final_first": 2, "final_only_packet": 0} {
		t.Run(vector, func(t *testing.T) {
			res, err := decode(readParts(t, vector))
			if err != nil {
				t.Fatal(err)
			}
			prototest.CheckBots(t, res, humans, prototest.Unknown, true)
		})
	}
}
