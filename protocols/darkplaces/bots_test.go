package darkplaces

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/gameserver-exporter/gameserver_exporter/protocols"
	"github.com/gameserver-exporter/gameserver_exporter/protocols/internal/idtech/idtechtest"
	"github.com/gameserver-exporter/gameserver_exporter/protocols/prototest"
	"github.com/gameserver-exporter/gameserver_exporter/protocols/wire"
)

// TestBotsMeaning: the engine counts bots (clients without a connection) in
// `clients` and says how many in `bots`; older engines send neither key, and
// a bot's line has ping 0 (a connected client's ping is at least 1). Players
// is the humans, Bots the bots, and the ping-0 lines are the ones marked.
// An infoResponse without `bots` cannot tell: clients as sent, bots unknown.
func TestBotsMeaning(t *testing.T) {
	file := func(name string) []byte {
		b, err := os.ReadFile(filepath.Join("testdata", name+".bin"))
		if err != nil {
			t.Fatal(err)
		}
		return b
	}
	for _, c := range []struct {
		name         string
		msg          []byte
		humans, bots int64
		complete     bool // the list is every client, so its marks are the bots
	}{
		{"nexuiz: 4 bots, 1 human", file("status_nexuiz"), 1, 4, true},
		{"bots only", file("status_bots_only"), 0, 4, true},
		{"xonotic teams: 1 bot", file("status_xonotic_teams"), 3, 1, true},
		{"old engine: ping-0 lines", file("status_old_engine"), 1, 2, true},
		{"no bots at all", statusReply("", `5 40 "a"`, `3 12 "b"`), 2, 0, true},
		{"bots over clients (a lie)", file("status_bots_over_clients"), prototest.Unknown, 3, false},
		{"infoResponse with bots", file("info_overflow"), 50, 10, false},
		{"infoResponse without bots", []byte(oob + "infoResponse\n" + `\sv_maxclients\8\clients\5\hostname\x`), 5, prototest.Unknown, false},
	} {
		t.Run(c.name, func(t *testing.T) {
			r, err := decode(c.msg)
			if err != nil {
				t.Fatal(err)
			}
			prototest.CheckBots(t, r.result(true, false), c.humans, c.bots, c.complete)
		})
	}
}

// TestBotsQuery: the same through a query.
func TestBotsQuery(t *testing.T) {
	addr := echoServer(t, `12 48 1 "human"`, `-3 0 2 "[BOT]x"`, `4 0 1 "[BOT]y"`)
	res, err := idtechtest.Query(t, Protocol, protocols.Settings{Players: true}, addr, wire.NewTrace())
	if err != nil {
		t.Fatal(err)
	}
	prototest.CheckBots(t, res, 1, 2, true)
}
