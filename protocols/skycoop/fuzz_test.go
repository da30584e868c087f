package skycoop

import (
	"testing"
	"unicode/utf8"

	"github.com/gameserver-exporter/gameserver_exporter/protocols/prototest"
)

func FuzzDecode(f *testing.F) {
	prototest.SeedHex(f)
	f.Fuzz(func(t *testing.T, b []byte) {
		st, err := decodeReply(b, defaultPacketID)
		if err != nil {
			return
		}
		if st.Players < 0 || st.MaxPlayers < 0 || len(st.Config.Players) > maxConfigPlayers {
			t.Fatalf("bad counts %+v", st)
		}
		res := st.Result(true)
		for _, s := range []string{res.Name, res.Version} {
			if !utf8.ValidString(s) {
				t.Fatalf("invalid UTF-8 %q", s)
			}
		}
	})
}

func FuzzParseConfig(f *testing.F) {
	for _, s := range []string{
		"{'players':['Alice','Bob'],'experience':'Voyageur','pvp':'True'}",
		`{"players":["A"],"experience":"Stalker","pvp":"False"}`,
		"{'players':[],'mode':3,'tags':['x','y'],}",
		"Players:\nAlice", "{'a':", "{'players':['a",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		c, err := parseConfig(s)
		if err == nil && len(c.Players) > maxConfigPlayers {
			t.Fatalf("%d players kept", len(c.Players))
		}
	})
}
