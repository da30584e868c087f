package quake2

import (
	"strings"
	"testing"

	"github.com/gameserver-exporter/gameserver_exporter/protocols"
	"github.com/gameserver-exporter/gameserver_exporter/protocols/internal/idtech/idtechtest"
	"github.com/gameserver-exporter/gameserver_exporter/protocols/prototest"
)

// TestQstatCrossCheck queries one fake q2ded with quakestat -q2s (which sends
// `status 23`, an argument q2ded ignores) and with the Querier (`status`): both
// must agree on name, map, game, players, max and every client line. No Quake
// II server runs from a Debian package, so this fake is the reference.
func TestQstatCrossCheck(t *testing.T) {
	reply := []byte(oob + "print\n" +
		`\cheats\0\deathmatch\1\dmflags\16\game\ctf\gamename\baseq2\hostname\Cross Check Q2\mapname\q2ctf4\maxclients\12\needpass\0\version\R1Q2 b8012` + "\n" +
		`12 48 "Player One"` + "\n" + `-3 0 "Bot"` + "\n" + `0 999 ""` + "\n" + `5 20 "ip guy" "192.0.2.7:27901"` + "\n")
	addr := prototest.UDP(t, func(req []byte) [][]byte {
		if !strings.HasPrefix(string(req), oob+"status") {
			t.Errorf("unexpected request %q", req)
			return nil
		}
		return [][]byte{reply}
	})

	res, qs := prototest.QstatQuery(t, "-q2s", addr, Protocol, protocols.Settings{Players: true})
	if res.Game != qs.Game {
		t.Errorf("game %q, qstat %q", res.Game, qs.Game)
	}

	idtechtest.CheckQstatPlayers(t, idtechtest.QstatList(t, "-q2s", addr).Players, res.PlayerList, false)
}
