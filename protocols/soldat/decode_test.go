package soldat

import (
	"testing"

	"github.com/gameserver-exporter/gameserver_exporter/protocols"
	"github.com/gameserver-exporter/gameserver_exporter/protocols/prototest"
	"github.com/gameserver-exporter/gameserver_exporter/protocols/wire"
)

func vec(t testing.TB, name string) []byte { return prototest.HexFile(t, name+".hex") }

// TestRecordLen pins the size of TMsg_RefreshX (packed) the layout adds up to.
func TestRecordLen(t *testing.T) {
	if recordLen != 2002 {
		t.Errorf("recordLen = %d, want 2002", recordLen)
	}
	for _, name := range []string{"refreshx_ctf", "refreshx_empty"} {
		if n := len(vec(t, name)); n != recordLen {
			t.Errorf("%s: %d bytes", name, n)
		}
	}
}

func TestDecode(t *testing.T) {
	rf, err := decodeRefresh(vec(t, "refreshx_ctf"))
	if err != nil {
		t.Fatal(err)
	}
	res := rf.result(true)
	if res.Map != "ctf_Ash" || res.Game != "Capture the Flag" || res.MaxPlayers != protocols.Known(16) || res.Password != protocols.FlagTrue ||
		res.Players != protocols.Known(2) || res.Bots != protocols.Known(1) || res.Name != "" {
		t.Errorf("%+v", res)
	}
	want := []protocols.Player{
		{Name: "Major", Score: protocols.Known(10), Ping: protocols.Known(50), Team: "alpha"},
		{Name: "Bot Sniper", Score: protocols.Known(4), Team: "bravo", Bot: true},
		{Name: "José", Score: protocols.Known(0), Ping: protocols.Known(120), Team: "spectator"},
	}
	if len(res.PlayerList) != len(want) {
		t.Fatalf("%+v", res.PlayerList)
	}
	for i := range want {
		if res.PlayerList[i] != want[i] {
			t.Errorf("player %d = %+v, want %+v", i, res.PlayerList[i], want[i])
		}
	}
	info := map[string]string{}
	for _, kv := range res.Info {
		info[kv.Key] = kv.Value
	}
	if info["next_map"] != "ctf_Cobra" || info["spectators"] != "1" || info["team_score_alpha"] != "3" || info["time_left"] != "20000" {
		t.Errorf("info %v", info)
	}
	// Neither addresses nor hardware ids reach the result.
	for _, kv := range res.Info {
		if kv.Value == "203.0.113.5" || kv.Value == "ABCDEF12345" {
			t.Errorf("info exposes %v", kv)
		}
	}
	prototest.CheckUTF8(t, res)

	rf, err = decodeRefresh(vec(t, "refreshx_empty"))
	if err != nil {
		t.Fatal(err)
	}
	if res := rf.result(false); res.Players != protocols.Known(0) || res.Bots != protocols.Known(0) || res.Game != "Deathmatch" || res.Password != protocols.FlagFalse || res.PlayerList != nil {
		t.Errorf("empty: %+v", res)
	}
}

func TestDecodeErrors(t *testing.T) {
	good := vec(t, "refreshx_ctf")
	bad := append([]byte("REFRESHY"), good[8:]...)
	for name, c := range map[string]struct {
		b      []byte
		reason string
	}{
		"short":     {good[:100], "truncated"},
		"no header": {bad, "malformed"},
		"long":      {append(good, 0), "truncated"},
	} {
		if _, err := decodeRefresh(c.b); wire.Reason(err) != c.reason {
			t.Errorf("%s: %v, want %s", name, err, c.reason)
		}
	}
	// A name length byte past 24 reads the 24 bytes there are.
	lying := append([]byte(nil), good...)
	lying[len(header)] = 200
	rf, err := decodeRefresh(lying)
	if err != nil || len(rf.players[0].name) != nameLen {
		t.Errorf("lying name length: %+v, %v", rf, err)
	}
}
