package prototest

import (
	"strings"
	"testing"

	"github.com/gameserver-exporter/gameserver_exporter/protocols"
)

// TestQstatQuery asks quakestat (a Quake 3 fake: getinfo, then getstatus) and
// a querier that says what the fake says: they agree.
func TestQstatQuery(t *testing.T) {
	const oob = "\xff\xff\xff\xff"
	addr := UDP(t, func(req []byte) [][]byte {
		switch s := string(req); {
		case strings.HasPrefix(s, oob+"getinfo"):
			return [][]byte{[]byte(oob + "infoResponse\n\\clients\\1\\hostname\\Q3 Test\\mapname\\q3dm17\\sv_maxclients\\12")}
		case strings.HasPrefix(s, oob+"getstatus"):
			return [][]byte{[]byte(oob + "statusResponse\n\\sv_hostname\\Q3 Test\\mapname\\q3dm17\\sv_maxclients\\12\n12 48 \"Player\"\n")}
		}
		return nil
	})
	p := protocols.Protocol{Name: "fake", New: func(protocols.Settings) (protocols.Querier, error) {
		return &FakeQuerier{Result: &protocols.Result{Name: "Q3 Test", Map: "q3dm17", Players: protocols.Known(1), MaxPlayers: protocols.Known(12)}}, nil
	}}
	if res, qs := QstatQuery(t, "-q3s", addr, p, protocols.Settings{}); res.Name != "Q3 Test" || qs.Name != "Q3 Test" {
		t.Errorf("querier %+v, qstat %+v", res, qs)
	}
	rec := QstatOne(t, "-P", "-R", "-q3s", addr.String())
	if len(rec.Players) != 1 || rec.Players[0].Name != "Player" || rec.Players[0].Score != 12 || rec.Players[0].Ping != 48 || rec.Rules["sv_hostname"] != "Q3 Test" {
		t.Errorf("record %+v", rec)
	}
}
