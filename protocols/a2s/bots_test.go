package a2s

import (
	"testing"

	"github.com/gameserver-exporter/gameserver_exporter/protocols"
	"github.com/gameserver-exporter/gameserver_exporter/protocols/internal/steam"
	"github.com/gameserver-exporter/gameserver_exporter/protocols/prototest"
)

// srcInfo builds an S2A_INFO_SRC reply (no EDF): its four strings, then rest
// (app id, counts, flags, version).
func srcInfo(name, mapName, folder, game string, rest ...byte) []byte {
	b := []byte{0xFF, 0xFF, 0xFF, 0xFF, steam.TypeInfo, 17}
	for _, s := range []string{name, mapName, folder, game} {
		b = append(append(b, s...), 0)
	}
	return append(b, rest...)
}

// botsInfo is CS:GO's reply with the given player, slot and bot bytes.
func botsInfo(players, maxPlayers, bots byte) []byte {
	return srcInfo("Bots", "de_dust2", "csgo", "Counter-Strike", 0xDA, 0x02, players, maxPlayers, bots, 'd', 'l', 0, 1, '1', '.', '0', 0)
}

// TestBotsMeaning: A2S_INFO's players byte counts the bots too, and its bots
// byte says how many: Players is the humans, Bots the bots. A 0x6D reply that
// ends before its bots byte (or carries HLTV longs) cannot tell: Players is the
// count as sent, Bots unknown.
func TestBotsMeaning(t *testing.T) {
	for _, c := range []struct {
		name         string
		msg          []byte
		humans, bots int64
	}{
		{"edf_all: 20 players, 3 bots", readHex(t, "info_edf_all.hex"), 17, 3},
		{"only bots", botsInfo(4, 10, 4), 0, 4},
		{"no bots", botsInfo(5, 10, 0), 5, 0},
		{"more bots than players", botsInfo(2, 10, 5), 0, 5},
		{"0x6D without bots byte", readHex(t, "info_m_no_bots.hex"), 3, prototest.Unknown},
		{"0x6D with HLTV longs", readHex(t, "info_m_hltv_longs.hex"), 300, prototest.Unknown},
	} {
		t.Run(c.name, func(t *testing.T) {
			in, err := steam.DecodeInfo(c.msg)
			if err != nil {
				t.Fatal(err)
			}
			prototest.CheckBots(t, in.Result(), c.humans, c.bots, true)
		})
	}
}

// TestBotsQuery: through a query, the counts come from the info reply; the
// A2S_PLAYER list holds the bots too but marks none of them (the record has no
// bot flag), so no entry may claim to be one.
func TestBotsQuery(t *testing.T) {
	f := &fake{info: one(readHex(t, "info_edf_all.hex")), players: one(readHex(t, "player_basic.hex")), noChallenge: true}
	res, _ := probe(t, f, protocols.Settings{Players: true})
	prototest.CheckBots(t, res, 17, 3, false)
	if len(res.PlayerList) != 3 {
		t.Fatalf("player list %+v, want 3 entries", res.PlayerList)
	}
	for _, p := range res.PlayerList {
		if p.Bot {
			t.Errorf("player %q marked as a bot: A2S_PLAYER cannot tell", p.Name)
		}
	}
}
