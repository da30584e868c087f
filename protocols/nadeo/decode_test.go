package nadeo

import (
	"errors"
	"slices"
	"testing"

	"github.com/gameserver-exporter/gameserver_exporter/protocols"
	"github.com/gameserver-exporter/gameserver_exporter/protocols/prototest"
	"github.com/gameserver-exporter/gameserver_exporter/protocols/wire"
)

func vec(t testing.TB, name string) []byte { return prototest.File(t, name+".xml") }

func value(t *testing.T, name string) *node {
	t.Helper()
	v, err := decodeResponse(vec(t, name))
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	return v
}

// TestDecodeInfo decodes the answers to the info calls of each game into one
// Result: Forever's challenge info, ManiaPlanet's map info (its name a link).
func TestDecodeInfo(t *testing.T) {
	for _, c := range []struct {
		answers    [4]string // name, max players (none: ""), version, map
		game, want string
		info       map[string]string
	}{
		{[4]string{"name", "maxplayers", "version_forever", "challenge_forever"}, "TmForever", `"Red Racing $ Club" "Green Hill" "TmForever" "2.11.26" ?/32 bots ? pw 0 - rules - info 5 partial []`,
			map[string]string{"version.Build": "2011-02-21_18_00", "map.Environnement": "Stadium"}},
		{[4]string{"name_link", "", "version_maniaplanet", "map_maniaplanet"}, "ManiaPlanet", `"Locked Stadium" "Storm Ärena" "SMStormElite@nadeolabs" "3.3.0" ?/? bots ? pw 0 - rules - info 7 partial []`, nil},
	} {
		res := &protocols.Result{}
		prototest.NoError(t, serverName(value(t, c.answers[0]), res))
		if c.answers[1] != "" {
			prototest.NoError(t, playerLimit(value(t, c.answers[1]), res))
		}
		game, err := version(value(t, c.answers[2]), res)
		prototest.NoError(t, err)
		prototest.NoError(t, mapInfo(value(t, c.answers[3]), res))
		if game != c.game {
			t.Errorf("game %q, want %q", game, c.game)
		}
		prototest.CheckProbe(t, res, nil, nil, c.want)
		prototest.CheckInfoHas(t, res, c.info)
		prototest.CheckUTF8(t, res)
	}
}

func TestDecodePlayers(t *testing.T) {
	list, err := playerList(value(t, "players"))
	prototest.NoError(t, err)
	want := []protocols.Player{{Name: "Speedy Gonzales"}, {Name: "Zoé", Team: "1"}, {Name: "nonick"}}
	if !slices.Equal(list, want) {
		t.Errorf("%+v, want %+v", list, want)
	}
	if list, err := playerList(value(t, "players_empty")); err != nil || len(list) != 0 {
		t.Errorf("empty: %v %v", list, err)
	}
}

func TestDecodeErrors(t *testing.T) {
	for file, want := range map[string]string{
		"err_not_xml":    "malformed",
		"err_wrong_root": "malformed",
		"err_no_value":   "malformed",
		"err_too_deep":   "too_large",
		"fault_auth":     "server_error",
	} {
		if _, err := decodeResponse(vec(t, file)); wire.Reason(err) != want {
			t.Errorf("%s: %v, want %s", file, err, want)
		}
	}
	_, err := decodeResponse(vec(t, "fault_auth"))
	var f *fault
	if !errors.As(err, &f) || f.Code != -1000 || f.String != "Password incorrect." {
		t.Errorf("fault %v", err)
	}
	if _, err := playerList(value(t, "err_players_not_array")); wire.Reason(err) != "malformed" {
		t.Errorf("players not an array: %v", err)
	}
	for name, decode := range map[string]func(*node) error{
		"name":    func(v *node) error { return serverName(v, &protocols.Result{}) },
		"limit":   func(v *node) error { return playerLimit(v, &protocols.Result{}) },
		"version": func(v *node) error { _, err := version(v, &protocols.Result{}); return err },
		"map":     func(v *node) error { return mapInfo(v, &protocols.Result{}) },
	} {
		if err := decode(value(t, "auth_ok")); wire.Reason(err) != "malformed" {
			t.Errorf("%s of a boolean: %v", name, err)
		}
	}
}

func TestStripColours(t *testing.T) {
	for in, want := range map[string]string{
		"$s$f00Red $fffRacing":      "Red Racing",
		"$$5 a $$":                  "$5 a $",
		"$l[http://x.org]link$l ok": "link ok",
		"$h[page]help$h":            "help",
		"$AbCtext":                  "text",
		"$0f":                       "",
		"end$":                      "end",
		"$<$w$>wide":                "wide",
		"$é":                        "é",
		"plain":                     "plain",
	} {
		if got := stripColours(in); got != want {
			t.Errorf("stripColours(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestMethodCall(t *testing.T) {
	got := string(methodCall("Authenticate", "User", "a<b&c"))
	want := `<?xml version="1.0" encoding="UTF-8"?><methodCall><methodName>Authenticate</methodName><params><param><value><string>User</string></value></param><param><value><string>a&lt;b&amp;c</string></value></param></params></methodCall>`
	if got != want {
		t.Errorf("%s", got)
	}
	root, err := parseXML(methodCall("GetPlayerList", 255, 0))
	if err != nil || root.child("params").childrenNamed("param")[0].child("value").child("i4").text != "255" {
		t.Errorf("%v", err)
	}
}

// FuzzDecode: no answer panics the decoders, every error names one reason, and
// what decodes has UTF-8 strings.
func FuzzDecode(f *testing.F) {
	prototest.SeedFiles(f, "*.xml")
	f.Fuzz(func(t *testing.T, b []byte) {
		v, err := decodeResponse(b)
		if err != nil {
			prototest.CheckReason(t, err)
			return
		}
		res := &protocols.Result{}
		for _, err := range []error{serverName(v, res), playerLimit(v, res), mapInfo(v, res)} {
			if err != nil {
				prototest.CheckReason(t, err)
			}
		}
		if _, err := version(v, res); err != nil {
			prototest.CheckReason(t, err)
		}
		list, err := playerList(v)
		if err != nil {
			prototest.CheckReason(t, err)
		}
		res.PlayerList = list
		prototest.CheckUTF8(t, res)
	})
}

func BenchmarkDecodePlayers(b *testing.B) {
	prototest.DecodeBench(b, vec(b, "players"), func(v []byte) error {
		n, err := decodeResponse(v)
		if err == nil {
			_, err = playerList(n)
		}
		return err
	})
}
