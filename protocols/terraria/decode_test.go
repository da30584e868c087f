package terraria

import (
	"errors"
	"net/http"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/gameserver-exporter/gameserver_exporter/protocols"
	"github.com/gameserver-exporter/gameserver_exporter/protocols/prototest"
	"github.com/gameserver-exporter/gameserver_exporter/protocols/wire"
)

// expected is a testdata/NAME.expected.json: the Result of NAME.json's status
// with players and rules.
type expected struct {
	prototest.Expected
	PlayerList []protocols.Player `json:"player_list"`
}

func TestDecodeVectors(t *testing.T) {
	for _, name := range prototest.Names(t, ".expected.json") {
		t.Run(name, func(t *testing.T) {
			e := prototest.ReadJSON[expected](t, filepath.Join("testdata", name+".expected.json"))
			st, err := decode(prototest.JSONResponse(200, prototest.File(t, name+".json")))
			prototest.NoError(t, err)
			res := st.result(true, true)
			prototest.CheckExpected(t, e.Expected, res, nil)
			prototest.CheckBots(t, res, e.Players.V, prototest.Unknown, true) // Terraria has no bots
			if !slices.Equal(res.PlayerList, e.PlayerList) || res.State != "" {
				t.Errorf("player list %+v, state %q; want %+v and no state", res.PlayerList, res.State, e.PlayerList)
			}
			// A module without players or rules keeps neither.
			if res := st.result(false, false); res.PlayerList != nil || res.Rules != nil {
				t.Errorf("without players and rules: %+v", res)
			}
		})
	}
}

func TestDecodeRulesSortedAndComplete(t *testing.T) {
	st, err := decode(prototest.JSONResponse(200, prototest.File(t, "status_players_rules.json")))
	prototest.NoError(t, err)
	res := st.result(false, true)
	if len(res.Rules) != 13 || !slices.IsSortedFunc(res.Rules, func(a, b protocols.KV) int { return strings.Compare(a.Key, b.Key) }) {
		t.Errorf("rules = %v, want the 13 sorted by key", res.Rules)
	}
	want := map[string]string{"AutoSave": "true", "DisableBuild": "false", "PvPMode": "normal", "SpawnProtectionRadius": "10"}
	for _, kv := range res.Rules {
		if v, ok := want[kv.Key]; ok && kv.Value != v {
			t.Errorf("rule %s = %q, want %q", kv.Key, kv.Value, v)
		}
		delete(want, kv.Key)
	}
	if len(want) != 0 {
		t.Errorf("rules %v missing", want)
	}
}

func TestDecodeErrors(t *testing.T) {
	for _, tc := range []struct {
		file string
		want error
		msg  string
	}{
		{"token_required.json", wire.ErrServer, "authentication failed: this server requires a REST token"},
		{"token_invalid.json", wire.ErrServer, "authentication failed: the module's REST token was refused"},
		{"endpoint_missing.json", wire.ErrServer, "no /v2/server/status endpoint"},
		{"internal_error.json", wire.ErrServer, `TShock status "500": "Internal server error."`},
		{"not_tshock.json", wire.ErrMalformed, "no status field"},
		{"negative_count.json", wire.ErrMalformed, "negative"},
		{"float_count.json", wire.ErrMalformed, "JSON"},
		{"array.json", wire.ErrMalformed, "JSON"},
		{"truncated.json", wire.ErrMalformed, "JSON"},
	} {
		t.Run(tc.file, func(t *testing.T) {
			_, err := decode(prototest.JSONResponse(200, prototest.File(t, tc.file)))
			if !errors.Is(err, tc.want) || !strings.Contains(err.Error(), tc.msg) {
				t.Fatalf("err = %v, want %v containing %q", err, tc.want, tc.msg)
			}
			if strings.Contains(err.Error(), "stacktrace") || strings.Contains(err.Error(), "RestManager") {
				t.Errorf("error quotes the stack trace: %v", err)
			}
		})
	}
}

func TestDecodeHTTPLevel(t *testing.T) {
	html := &wire.HTTPResponse{Status: 200, Header: http.Header{"Content-Type": {"text/html"}}, Body: []byte("<html>admin panel</html>")}
	if _, err := decode(html); !errors.Is(err, wire.ErrMalformed) || strings.Contains(err.Error(), "admin panel") {
		t.Errorf("HTML page: %v", err)
	}
	if _, err := decode(&wire.HTTPResponse{Status: 502, Body: []byte("bad gateway")}); !errors.Is(err, wire.ErrServer) {
		t.Errorf("502: %v", err)
	}
}

func TestTShockVersionForms(t *testing.T) {
	for raw, want := range map[string]string{
		`"5.2.0.0"`:                                      "5.2.0.0",
		`{"Major":4,"Minor":5,"Build":18}`:               "4.5.18",
		`{"Major":4,"Minor":5,"Build":18,"Revision":-1}`: "4.5.18",
		`null`:          "",
		`{"Minor":1}`:   "",
		`[1,2]`:         "",
		`{"Major":"x"}`: "",
	} {
		st := status{TShockVersion: []byte(raw)}
		if got := st.tshockVersion(); got != want {
			t.Errorf("%s: %q, want %q", raw, got, want)
		}
	}
}

func TestParseUptime(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want float64
		ok   bool
	}{
		{"0.00:00:00", 0, true},
		{"0.00:05:59", 359, true},
		{"1.02:03:04", 93784, true},
		{"400.23:59:59", 400*86400 + 86399, true},
		{"", 0, false},
		{"02:03:04", 0, false},     // no day part
		{"1.2:03:04", 0, false},    // hours not two digits
		{"1.24:00:00", 0, false},   // no such hour
		{"1.00:60:00", 0, false},   // no such minute
		{"-1.00:00:00", 0, false},  // negative
		{"+1.00:00:00", 0, false},  // signed
		{"1.00:00:00.5", 0, false}, // fractions are not TShock's format
		{"99999999999.00:00:00", 0, false},
	} {
		got, ok := parseUptime(tc.in)
		if got != tc.want || ok != tc.ok {
			t.Errorf("parseUptime(%q) = %v, %v; want %v, %v", tc.in, got, ok, tc.want, tc.ok)
		}
	}
}

func FuzzDecode(f *testing.F) {
	prototest.SeedFiles(f, "*.json")
	f.Fuzz(func(t *testing.T, b []byte) {
		st, err := decode(prototest.JSONResponse(200, b))
		if err != nil {
			if !errors.Is(err, wire.ErrMalformed) && !errors.Is(err, wire.ErrServer) {
				t.Fatalf("error wraps no expected sentinel: %v", err)
			}
			if !utf8.ValidString(err.Error()) {
				t.Fatalf("error is not UTF-8: %q", err)
			}
			return
		}
		res := st.result(true, true)
		if !res.Players.Known || res.Players.Value < 0 || len(res.PlayerList) > maxPlayers || len(res.Rules) > maxRules {
			t.Fatalf("result out of bounds: %+v", res)
		}
		for _, kv := range res.InfoKV() {
			if !utf8.ValidString(kv.Value) {
				t.Fatalf("Info %s not UTF-8: %q", kv.Key, kv.Value)
			}
		}
	})
}

func BenchmarkDecode(b *testing.B) {
	resp := prototest.JSONResponse(200, prototest.File(b, "status_players_rules.json"))
	prototest.DecodeBench(b, nil, func([]byte) error {
		st, err := decode(resp)
		if err == nil {
			st.result(true, true)
		}
		return err
	})
}
