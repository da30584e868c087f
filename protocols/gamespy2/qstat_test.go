package gamespy2

import (
	"testing"

	"github.com/gameserver-exporter/gameserver_exporter/protocols"
	"github.com/gameserver-exporter/gameserver_exporter/protocols/prototest"
)

// TestQstat queries one fake server with quakestat -gs2 (which asks every section in
// one request, flags FF FF FF) and with the Querier (info, then players and teams).
func TestQstat(t *testing.T) {
	info := []byte("\x00XXXXhostname\x00Cross Check [EU]\x00gamever\x0001.00.10.0621\x00hostport\x002302\x00" +
		"maxplayers\x0016\x00password\x000\x00mapname\x00bloodgulch\x00numplayers\x002\x00gametype\x00CTF\x00\x00")
	players := []byte("\x02player_\x00score_\x00ping_\x00team_\x00\x00Alpha\x005\x0040\x000\x00Bravo\x001\x0080\x001\x00\x00" +
		"\x02team_t\x00score_t\x00\x00Red\x005\x00Blue\x001\x00")
	addr := prototest.UDP(t, func(req []byte) [][]byte {
		if len(req) != 10 {
			return nil
		}
		var b []byte
		if req[7] == 0xFF {
			b = append(b, info...)
		} else {
			b = append(b, info[:headerLen]...)
			b = append(b, 0) // empty K/V section
		}
		if req[8] == 0xFF {
			b = append(b, players...)
		}
		return [][]byte{withID(b, req)}
	})
	res, _ := prototest.QstatQuery(t, "-gs2", addr, Protocol, protocols.Settings{Players: true})
	if len(res.PlayerList) != 2 || res.PlayerList[1].Team != "Blue" {
		t.Errorf("players %+v", res.PlayerList)
	}
}
