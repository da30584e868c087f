package savage

import (
	"bytes"
	"maps"
	"reflect"
	"regexp"
	"slices"
	"testing"

	"github.com/gameserver-exporter/gameserver_exporter/protocols"
	"github.com/gameserver-exporter/gameserver_exporter/protocols/prototest"
)

func TestRequest(t *testing.T) {
	// qstat's constants and the spec's examples.
	if got, want := newRequest(cmdExtInfo, [4]byte{0x76, 0x46, 0, 0}), []byte{0x9E, 0x4C, 0x23, 0, 0, 0xCE, 0x76, 0x46, 0, 0}; !bytes.Equal(got, want) {
		t.Errorf("extended request % X, want % X", got, want)
	}
	if got, want := newRequest(cmdInfo, [4]byte{1, 0x21, 0, 0}), []byte{0x9E, 0x4C, 0x23, 0, 0, 0xC8, 1, 0x21, 0, 0}; !bytes.Equal(got, want) {
		t.Errorf("basic request % X, want % X", got, want)
	}
	for range 1000 {
		for _, c := range newEcho() {
			if c == 0xFF || c == 0xFE || c == 0 {
				t.Fatalf("echo byte %02X", c)
			}
		}
	}
}

// TestDecodeVectors decodes each testdata/NAME.vec as its NAME.expected.json
// says: the error's reason, or the header's command, echo and truncation, the
// Result's ProbeLine, its players (name, team) and rules. cnum counts the
// clients: Savage has no bots to tell apart (Bots unknown, none marked).
func TestDecodeVectors(t *testing.T) {
	prototest.VecVectors(t, func(t *testing.T, b []byte, w struct {
		prototest.HexVector
		Cmd            byte
		Echo           [4]byte
		Truncated      bool
		Line           string
		Players, Rules [][2]string
	}) {
		r, err := decode(b)
		if w.Refused(t, b, err) {
			return
		}
		if r.Cmd != w.Cmd || r.Echo != w.Echo || r.Truncated != w.Truncated {
			t.Errorf("cmd %02X echo % X truncated %v", r.Cmd, r.Echo, r.Truncated)
		}
		res := r.Result(true, true)
		prototest.CheckProbe(t, res, nil, nil, w.Line)
		var list []protocols.Player
		for _, p := range w.Players {
			list = append(list, protocols.Player{Name: p[0], Team: p[1]})
		}
		var rules []protocols.KV
		for _, kv := range w.Rules {
			rules = append(rules, protocols.KV{Key: kv[0], Value: kv[1]})
		}
		if !reflect.DeepEqual(res.PlayerList, list) || !reflect.DeepEqual(res.Rules, rules) {
			t.Errorf("players %+v, rules %v", res.PlayerList, res.Rules)
		}
		if len(res.Info) != 1+len(r.Engine)+len(r.Game) || res.Info[0].Key != "net_protocol" {
			t.Errorf("info %v", res.Info)
		}
		if res := r.Result(false, false); res.PlayerList != nil || res.Rules != nil || res.PhaseErrors != nil {
			t.Errorf("players and rules not asked for: %+v", res)
		}
	})
}

func TestStrip(t *testing.T) {
	for in, want := range map[string]string{
		"plain":           "plain",
		"^yYellow":        "Yellow",
		"^900XR ^g1.3":    "XR 1.3",
		"^12x":            "^12x", // neither three digits nor a letter
		"a^":              "a^",
		"^^y":             "^",
		"100^% sure":      "100^% sure",
		"^123^456":        "",
		"^W^w":            "",
		"dangling ^9":     "dangling ^9",
		"^Caf\u00e9":      "afé", // ^C is a colour code like any letter
		"Caf\u00e9 ^1234": "Café 4",
	} {
		if got := strip(in); got != want {
			t.Errorf("Strip(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestParsePlayers(t *testing.T) {
	got := parsePlayers("Team 1 (human):\n--empty team--\nTeam 2 (beast):\r\nBeast Lord (Commander)\r\n\n  \nTeam Rocket\n")
	want := []protocols.Player{
		{Name: "Beast Lord", Team: "Team 2 (beast)"},
		{Name: "Team Rocket", Team: "Team 2 (beast)"},
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("got %+v, want %+v", got, want)
	}
	many := bytes.Repeat([]byte("x\n"), 5000)
	if n := len(parsePlayers(string(many))); n != maxPlayers {
		t.Errorf("%d players, want the cap %d", n, maxPlayers)
	}
}

// No real Savage capture exists (spec §7): the seeds are the own vectors.
func FuzzDecode(f *testing.F) {
	prototest.FuzzResults(f, slices.Collect(maps.Values(prototest.AllVecs(f))), func(t *testing.T, b []byte) *protocols.Result {
		r, err := decode(b)
		if err != nil {
			return nil
		}
		res := r.Result(true, true)
		if len(res.PlayerList) > maxPlayers {
			t.Fatalf("%d players past the cap", len(res.PlayerList))
		}
		for _, p := range res.PlayerList {
			if p.Name == "" {
				t.Fatal("empty player name")
			}
		}
		return res
	})
}

// specColour is the stripping rule as the spec writes it (§5). Like any single-pass
// replace it is not idempotent: "^^AA" leaves "^A" (a fuzz find, kept in testdata/fuzz).
var specColour = regexp.MustCompile(`\^([0-9]{3}|[a-zA-Z])`)

// FuzzStrip checks the hand-written strip against the spec's regular expression.
func FuzzStrip(f *testing.F) {
	for _, s := range []string{"^yName", "^900XR ^g1.3", "^^AA0", "^12x", "a^", "^1234", "Caf\xe9^"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if got, want := strip(s), specColour.ReplaceAllString(s, ""); got != want {
			t.Fatalf("Strip(%q) = %q, regexp gives %q", s, got, want)
		}
	})
}

func BenchmarkDecode(b *testing.B) {
	prototest.DecodeBench(b, prototest.VecFile(b, "xr"), func(v []byte) error {
		r, err := decode(v)
		if err == nil {
			r.Result(true, true)
		}
		return err
	})
}
