package darkplaces

import (
	"strings"
	"testing"

	"github.com/gameserver-exporter/gameserver_exporter/protocols"
	"github.com/gameserver-exporter/gameserver_exporter/protocols/internal/idtech/idtechtest"
	"github.com/gameserver-exporter/gameserver_exporter/protocols/prototest"
)

// TestQstatCrossCheck queries one fake Xonotic server with quakestat
// -nexuizs, which sends `getinfo` then `getstatus` (no challenge), and with the
// Querier (`getstatus <challenge>`): both must agree on name, map, players
// (qstat counts the bots among them, the querier apart), max and every player
// line. The fake does not rate-limit (qstat itself would
// need a retry against the real engine: see realserver_test.go). Names use
// ^digit colours only, which both strip alike (qstat knows no ^xRGB).
func TestQstatCrossCheck(t *testing.T) {
	const info = `\gamename\Xonotic\modname\data\gameversion\20000\sv_maxclients\16\clients\4\bots\2\mapname\^2solarium\hostname\^1Cross ^3Check^7 DP\protocol\3\qcstatus\ctf:0.8.6:P0:S12:F5:MXPM::score!!`
	players := "10 0 1 \"[BOT]^1Red\"\n-666 25 0 \"watcher\"\n5 40 2 \"hu^5man\"\n3 0 2 \"[BOT]b\"\n"
	addr := prototest.UDP(t, func(req []byte) [][]byte {
		s := string(req)
		switch {
		case strings.HasPrefix(s, oob+"getinfo"):
			return [][]byte{[]byte(oob + "infoResponse\n" + info)}
		case strings.HasPrefix(s, oob+"getstatus"):
			reply := oob + "statusResponse\n" + info
			if c, ok := parseRequest(req); ok {
				reply += `\challenge\` + c
			}
			return [][]byte{[]byte(reply + "\n" + players)}
		}
		return nil
	})

	qs := prototest.QstatJSON(t, "-nexuizs", addr, "-P")
	res, err := idtechtest.Query(t, Protocol, protocols.Settings{Players: true}, addr, nil)
	prototest.NoError(t, err)
	if qs.Status != "online" || res.Name != qs.Name || res.Map != qs.Map || res.Game != qs.Game ||
		res.Players != protocols.Known(2) || res.Players.Value+res.Bots.Value != int64(qs.NumPlayers) || res.MaxPlayers != protocols.Known(int64(qs.MaxPlayers)) {
		t.Errorf("querier %q %q %q %+v+%+v %+v, qstat %+v", res.Name, res.Map, res.Game, res.Players, res.Bots, res.MaxPlayers, qs)
	}

	idtechtest.CheckQstatPlayers(t, idtechtest.QstatList(t, "-nexuizs", addr).Players, res.PlayerList, true)
}
