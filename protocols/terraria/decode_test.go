package terraria

import (
	"errors"
	"net/http"
	"slices"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/gameserver-exporter/gameserver_exporter/protocols"
	"github.com/gameserver-exporter/gameserver_exporter/protocols/prototest"
	"github.com/gameserver-exporter/gameserver_exporter/protocols/wire"
)

func TestDecodeVectors(t *testing.T) {
	for _, tc := range []struct {
		file             string
		players, rules   bool
		name, world, ver string
		count, max       protocols.Count
		password         protocols.Flag
		playerList       []protocols.Player
		wantRules        []string // "key=value", in order, checked as a prefix
		info             map[string]string
		uptime           protocols.Span
	}{
		{
			file: "status_players_rules.json", players: true, rules: true,
			name: "Terraria Server", world: "Dirtmouth", ver: "v1.4.4.9",
			count: protocols.Known(3), max: protocols.Known(8), password: protocols.FlagFalse,
			playerList: []protocols.Player{{Name: "Guide"}, {Name: "Zoë", Team: "blue"}, {Name: "Pinky", Team: "pink"}},
			wantRules:  []string{"AutoSave=true", "DisableBuild=false"},
			info: map[string]string{"tshockversion": "5.2.0.0", "port": "7777", "uptime": "1.02:03:04",
				"players_inactive": "1", "serverpassword": "false"},
			uptime: protocols.SpanSeconds(93784),
		},
		{
			// Same reply, module without players or rules: neither is kept.
			file: "status_players_rules.json", name: "Terraria Server", world: "Dirtmouth", ver: "v1.4.4.9",
			count: protocols.Known(3), max: protocols.Known(8), password: protocols.FlagFalse,
			uptime: protocols.SpanSeconds(93784),
		},
		{
			file: "status_minimal_password.json", players: true, rules: true,
			name: "Fête des Slimes ✿", world: "Jardin", ver: "v1.4.4.9",
			count: protocols.Known(0), max: protocols.Known(16), password: protocols.FlagTrue,
			info:   map[string]string{"tshockversion": "5.2.1.0"},
			uptime: protocols.SpanSeconds(359),
		},
		{
			file: "status_string_counts.json", name: "old", world: "w", ver: "v1.3.5.3",
			count: protocols.Known(2), max: protocols.Known(255),
			info:   map[string]string{"tshockversion": "4.3.26.0", "port": "7777"},
			uptime: protocols.SpanSeconds(12 * 86400),
		},
	} {
		t.Run(tc.file, func(t *testing.T) {
			st, err := decode(prototest.JSONResponse(200, prototest.File(t, tc.file)))
			prototest.NoError(t, err)
			res := st.result(tc.players, tc.rules)
			if res.Name != tc.name || res.Map != tc.world || res.Version != tc.ver {
				t.Errorf("name/map/version = %q/%q/%q", res.Name, res.Map, res.Version)
			}
			if res.Players != tc.count || res.MaxPlayers != tc.max || res.Password != tc.password {
				t.Errorf("players/max/password = %v/%v/%v", res.Players, res.MaxPlayers, res.Password)
			}
			if !slices.Equal(res.PlayerList, tc.playerList) {
				t.Errorf("player list = %+v, want %+v", res.PlayerList, tc.playerList)
			}
			if !tc.rules && res.Rules != nil || tc.rules && len(res.Rules) < len(tc.wantRules) {
				t.Errorf("rules = %v", res.Rules)
			}
			for i, want := range tc.wantRules {
				if got := res.Rules[i].Key + "=" + res.Rules[i].Value; got != want {
					t.Errorf("rule %d = %s, want %s", i, got, want)
				}
			}
			prototest.CheckInfoHas(t, res, tc.info)
			if res.Uptime != tc.uptime || res.MapTime.Known {
				t.Errorf("uptime %+v, map time %+v; want %+v and none", res.Uptime, res.MapTime, tc.uptime)
			}
			if res.Bots.Known || res.State != "" {
				t.Errorf("reported what TShock does not: %+v", res)
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
	for _, kv := range res.Rules {
		if kv.Key == "PvPMode" && kv.Value != "normal" || kv.Key == "SpawnProtectionRadius" && kv.Value != "10" {
			t.Errorf("rule %s = %q", kv.Key, kv.Value)
		}
	}
}

func TestDecodeErrors(t *testing.T) {
	for _, tc := range []struct {
		file string
		want error
		msg  string
	}{
		{"token_required.json", wire.ErrServer, "authentication failed"},
		{"token_invalid.json", wire.ErrServer, "authentication failed"},
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
