package teamspeak3

import (
	"testing"

	"github.com/gameserver-exporter/gameserver_exporter/protocols/prototest"
)

// TestGamedig queries the same fake server with gamedig (npm, game teamspeak3:
// use, serverinfo, clientlist, channellist) and the Querier with players: name,
// maximum and the voice clients' names agree (gamedig counts the listed voice
// clients as its players; the Querier takes serverinfo's count).
func TestGamedig(t *testing.T) {
	// Names with the escapes gamedig undoes (\s and \/; it leaves \p as sent).
	out := append(transcript(t, "ok_default"), "clid=1 cid=1 client_nickname=serveradmin client_type=1|clid=5 cid=2 client_nickname=Zoë\\s[EU] client_type=0|clid=6 cid=3 client_nickname=AC\\/DC client_type=0\n\rerror id=0 msg=ok\n\r"...)
	out = append(out, "cid=1 channel_name=Lobby channel_topic\n\rerror id=0 msg=ok\n\r"...) // gamedig's channellist
	f := serve(t, out)
	s := withQueryPort(f.addr.Port())
	s.Players = true
	gd, res := prototest.GamedigQuery(t, "teamspeak3", map[string]any{"teamspeakQueryPort": f.addr.Port()}, onTargetPort, s, f.addr)
	if gd.Name != res.Name || int64(gd.MaxPlayers) != res.MaxPlayers.Value || len(gd.Players) != len(res.PlayerList) {
		t.Fatalf("querier %+v, gamedig %+v", res, gd)
	}
	for i, p := range gd.Players {
		if p.Name != res.PlayerList[i].Name {
			t.Errorf("player %d: %q, gamedig %q", i, res.PlayerList[i].Name, p.Name)
		}
	}
}
