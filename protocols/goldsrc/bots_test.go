package goldsrc

import (
	"testing"

	"github.com/gameserver-exporter/gameserver_exporter/protocols"
	"github.com/gameserver-exporter/gameserver_exporter/protocols/prototest"
)

// infoStringMsg builds an infostringresponse around body ("\k\v...").
func infoStringMsg(body string) []byte {
	return append([]byte("\xFF\xFF\xFF\xFFinfostringresponse\x00"+body), 0)
}

// TestBotsMeaning: the replies that carry a bot count (0x49 and 0x6D's bots
// byte, the infostring's "bots" key) count the bots in their players too:
// Players is the humans, Bots the bots. The 'C' reply, a 0x6D that ends
// before its bots byte and an infostring without "bots" cannot tell: Players
// is the count as sent, Bots unknown.
func TestBotsMeaning(t *testing.T) {
	for _, c := range []struct {
		name         string
		msg          []byte
		humans, bots int64
	}{
		{"0x49: 12 players, 4 bots", readHex(t, "info_I_goldsrc.hex"), 8, 4},
		{"0x6D: 6 players, 2 bots", readHex(t, "info_m_mod.hex"), 4, 2},
		{"infostring: 7 players, 2 bots", readHex(t, "infostring.hex"), 5, 2},
		{"infostring: only bots", infoStringMsg(`\players\3\max\16\bots\3`), 0, 3},
		{"infostring: more bots than players", infoStringMsg(`\players\1\bots\4`), 0, 4},
		{"infostring: no bots key", infoStringMsg(`\players\6\max\16`), 6, prototest.Unknown},
		{"infostring: bots but no players", infoStringMsg(`\max\16\bots\2`), prototest.Unknown, 2},
		{"'C' has no bot count", readHex(t, "info_C.hex"), 5, prototest.Unknown},
		{"0x6D from HLTV ends after vac", readHex(t, "info_m_hltv.hex"), 0, prototest.Unknown},
	} {
		t.Run(c.name, func(t *testing.T) {
			res, err := decodeInfoReply(c.msg)
			if err != nil {
				t.Fatal(err)
			}
			prototest.CheckBots(t, res, c.humans, c.bots, true)
		})
	}
}

// TestBotsQuery: through a query the counts come from the info reply; the
// players record has no bot flag, so no list entry may claim to be a bot.
func TestBotsQuery(t *testing.T) {
	f := &fake{a2sInfo: one(readHex(t, "info_I_goldsrc.hex")), players: one(readHex(t, "players_D.hex")), noChallenge: true}
	res, _, err := query(t, f.start(t), protocols.Settings{Players: true}, answerDeadline)
	if err != nil {
		t.Fatal(err)
	}
	prototest.CheckBots(t, res, 8, 4, false)
	if len(res.PlayerList) == 0 {
		t.Fatal("no player list")
	}
	for _, p := range res.PlayerList {
		if p.Bot {
			t.Errorf("player %q marked as a bot: the players record cannot tell", p.Name)
		}
	}
}
