package gamespy1

import (
	"testing"

	"github.com/gameserver-exporter/gameserver_exporter/protocols/prototest"
)

// TestQstat queries one fake server with quakestat -gps and with the Querier. The
// names are ASCII: qstat drops Latin-1 bytes from names.
func TestQstat(t *testing.T) {
	addr := prototest.UDP(t, serve(t,
		[]byte(`\player_1\Beta\frags_1\3\ping_1\ 70\team_1\1\queryid\31.2\final\`),
		[]byte(`\gamename\ut\gamever\451\hostname\Cross Check [US]\hostport\7777\mapname\CTF-Face\gametype\CTFGame\numplayers\2\maxplayers\12\password\False\player_0\Alpha\frags_0\10\ping_0\ 40\team_0\0\queryid\31.1`),
	))
	res, qs := prototest.QstatQuery(t, "-gps", addr, Protocol, players)
	if len(res.PlayerList) != qs.NumPlayers {
		t.Errorf("%d players, qstat says %d", len(res.PlayerList), qs.NumPlayers)
	}
}
