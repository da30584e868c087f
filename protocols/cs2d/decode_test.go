package cs2d

import (
	"reflect"
	"strings"
	"testing"

	"github.com/gameserver-exporter/gameserver_exporter/protocols"
	"github.com/gameserver-exporter/gameserver_exporter/protocols/prototest"
)

// TestDecodeVectors decodes each own vector, testdata/NAME.vec (escaped hex
// written by hand from gamedig's reader, prototest.ParseVec), as its
// NAME.expected.json says: the error's reason, or the Result's ProbeLine, its
// player list and rules it holds. The players byte counts bots too (they take
// slots) and the bots byte says how many (the list carries no bot mark); a bots
// byte above the players byte leaves the total as sent and bots unknown.
func TestDecodeVectors(t *testing.T) {
	prototest.VecVectors(t, func(t *testing.T, b []byte, w struct {
		prototest.HexVector
		Line    string
		Players []protocols.Player
		Rules   map[string]string
	}) {
		r, err := decode(b)
		if w.Refused(t, b, err) {
			return
		}
		res := r.Result(true, true)
		prototest.CheckProbe(t, res, nil, nil, w.Line)
		if strings.HasSuffix(t.Name(), "/full") {
			prototest.CheckBots(t, res, 3, 2, false)
		}
		if !reflect.DeepEqual(res.PlayerList, w.Players) {
			t.Errorf("players %+v, want %+v", res.PlayerList, w.Players)
		}
		rules := prototest.KVMap(res.Rules)
		for k, v := range w.Rules {
			if rules[k] != v {
				t.Errorf("rule %s = %q, want %q (rules %v)", k, rules[k], v, res.Rules)
			}
		}
		if _, ok := rules["game_mode"]; ok != (r.Mode >= 0) {
			t.Errorf("game_mode rule present %v, mode %d", ok, r.Mode)
		}
		if res := r.Result(false, false); res.PlayerList != nil || res.Rules != nil || res.PhaseErrors != nil || len(res.Info) == 0 {
			t.Errorf("players and rules not asked for: %+v", res)
		}
	})
}

func TestStrip(t *testing.T) {
	for in, want := range map[string]string{
		"plain":                   "plain",
		"\u00a9255000000Red":      "Red",
		"a\u00a9000255000b\u00a9": "ab\u00a9",
		"\u00a912345678x":         "\u00a912345678x", // eight digits: no code
		"\u00a9\u00a9000000000":   "\u00a9",
		"Caf\u00e9":               "Café",
	} {
		if got := strip(in); got != want {
			t.Errorf("strip(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestRequest(t *testing.T) {
	// What gamedig sends; the answer repeats its first four bytes.
	if want := []byte("\x01\x00\xFB\x01\xF5\x03\xFB\x05"); !reflect.DeepEqual(request, want) || !reflect.DeepEqual(request[:4], infoHeader) {
		t.Errorf("request % X", request)
	}
}

// No real CS2D capture is committed: the seeds are the own vectors.
func FuzzDecode(f *testing.F) { prototest.FuzzVecs(f, 255, decoded) }

// decoded is decode and the Result it leads to, players and rules on.
var decoded = prototest.Decoded(decode, func(r *reply) *protocols.Result { return r.Result(true, true) })

func BenchmarkDecode(b *testing.B) {
	prototest.DecodeBench(b, prototest.VecFile(b, "full"), decoded.Err)
}
