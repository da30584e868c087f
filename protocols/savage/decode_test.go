package savage

import (
	"bytes"
	"errors"
	"reflect"
	"regexp"
	"testing"

	"github.com/gameserver-exporter/gameserver_exporter/protocols"
	"github.com/gameserver-exporter/gameserver_exporter/protocols/prototest"
	"github.com/gameserver-exporter/gameserver_exporter/protocols/wire"
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

func TestDecodeVectors(t *testing.T) {
	// line is the Result's ProbeLine; list and rules are the Result's own.
	type want struct {
		line  string
		list  []protocols.Player
		rules []protocols.KV
	}
	tests := []struct {
		vec       string
		err       error
		cmd       byte
		echo      [4]byte
		truncated bool
		want      want
	}{
		{
			vec: "ext_basic", cmd: cmdExtInfoReply, echo: [4]byte{0x76, 0x46, 0, 0},
			want: want{
				line: `"Newerth Arena" "eden2" "RTSS" "12" 3/16 bots ? pw 2 [Alice Bob Carol] rules 12 info 18 partial []`,
				list: []protocols.Player{
					{Name: "Alice", Team: "Team 1 (human)"},
					{Name: "Bob", Team: "Team 1 (human)"},
					{Name: "Carol", Team: "Team 2 (beast)"},
				},
				rules: []protocols.KV{
					{Key: "time", Value: "1234"}, {Key: "fw", Value: "0"},
					{Key: "gametype", Value: "RTSS"}, {Key: "needcmdr", Value: "0"}, {Key: "pass", Value: "1"},
					{Key: "race1", Value: "human"}, {Key: "race2", Value: "beast"}, {Key: "demo", Value: "0"},
					{Key: "pure", Value: "1"}, {Key: "bal", Value: "0"}, {Key: "timelimit", Value: "3600"},
					{Key: "notes", Value: "Have fun"},
				},
			},
		},
		{
			vec: "basic_c9", cmd: cmdInfoReply, echo: [4]byte{1, 0x21, 0, 0},
			want: want{
				line: `"Basic" "crossroads" "DM" "10" 0/32 bots ? pw 1 - rules 8 info 13 partial [players:server_error]`,
				rules: []protocols.KV{
					{Key: "gametype", Value: "DM"}, {Key: "needcmdr", Value: "1"}, {Key: "pass", Value: "0"},
					{Key: "race1", Value: "human"}, {Key: "race2", Value: "human"}, {Key: "demo", Value: "0"},
					{Key: "pure", Value: "0"}, {Key: "bal", Value: "1"},
				},
			},
		},
		{
			vec: "xr", cmd: cmdExtInfoReply, echo: [4]byte{0x10, 0x20, 0x30, 0x40},
			want: want{
				line: `"XR Café" "moonlight" "RTSS" "XR 1.3" 7/24 bots ? pw 1 [RedLeader noob Watcher Team Rocket] rules 5 info 11 partial []`,
				list: []protocols.Player{
					{Name: "RedLeader", Team: "Team 1 (human)"},
					{Name: "noob", Team: "Team 1 (human)"},
					{Name: "Watcher", Team: "Spectators"},
					{Name: "Team Rocket", Team: "Spectators"},
				},
				rules: []protocols.KV{
					{Key: "fw", Value: ""}, {Key: "gametype", Value: "RTSS"}, {Key: "ver", Value: "^900XR ^g1.3"},
					{Key: "pass", Value: "0"}, {Key: "td", Value: "1"},
				},
			},
		},
		{
			vec: "game_truncated", cmd: cmdExtInfoReply, echo: [4]byte{1, 2, 3, 4}, truncated: true,
			want: want{
				line:  `"Cut" "eden2" "RTSS" "12" 2/10 bots ? pw 1 [Alice Bo] rules 2 info 8 partial [rules:truncated players:truncated]`,
				list:  []protocols.Player{{Name: "Alice", Team: "Team 1 (human)"}, {Name: "Bo", Team: "Team 1 (human)"}},
				rules: []protocols.KV{{Key: "gametype", Value: "RTSS"}, {Key: "pass", Value: "0"}},
			},
		},
		{
			vec: "engine_truncated", cmd: cmdExtInfoReply, echo: [4]byte{1, 2, 3, 4}, truncated: true,
			want: want{
				line: `"Half" "ed" "" "12" ?/? bots ? pw 0 - rules - info 3 partial [rules:truncated players:truncated]`,
			},
		},
		{
			vec: "no_players_key", cmd: cmdExtInfoReply, echo: [4]byte{1, 2, 3, 4},
			want: want{
				line:  `"Full" "eden2" "RTSS" "12" 20/20 bots ? pw 1 - rules 3 info 8 partial [players:too_large]`,
				rules: []protocols.KV{{Key: "gametype", Value: "RTSS"}, {Key: "pass", Value: "0"}, {Key: "timelimit", Value: "0"}},
			},
		},
		{
			vec: "cp1252", cmd: cmdExtInfoReply, echo: [4]byte{1, 2, 3, 4},
			want: want{
				line:  `"Empire Bay – „Cash & Cars“ €5 VIP" "eden2" "RTSS" "12" 20/20 bots ? pw 1 - rules 3 info 8 partial [players:too_large]`,
				rules: []protocols.KV{{Key: "gametype", Value: "RTSS"}, {Key: "pass", Value: "0"}, {Key: "timelimit", Value: "0"}},
			},
		},
		{
			vec: "empty_strings", cmd: cmdExtInfoReply, echo: [4]byte{1, 2, 3, 4},
			want: want{line: `"" "" "" "12" ?/? bots ? pw 0 - rules - info 1 partial []`},
		},
		{vec: "short", err: wire.ErrTruncated},
		{vec: "bad_flags", err: wire.ErrMalformed},
		{vec: "ping_reply", err: wire.ErrMalformed},
	}
	for _, tc := range tests {
		t.Run(tc.vec, func(t *testing.T) {
			r, err := decode(prototest.VecFile(t, tc.vec))
			if prototest.WantedError(t, err, tc.err) {
				return
			}
			if r.Cmd != tc.cmd || r.Echo != tc.echo || r.Truncated != tc.truncated {
				t.Errorf("cmd %02X echo % X truncated %v", r.Cmd, r.Echo, r.Truncated)
			}
			res := r.Result(true, true)
			w := tc.want
			prototest.CheckProbe(t, res, nil, nil, w.line)
			if !reflect.DeepEqual(res.PlayerList, w.list) {
				t.Errorf("players %+v, want %+v", res.PlayerList, w.list)
			}
			if !reflect.DeepEqual(res.Rules, w.rules) {
				t.Errorf("rules %v, want %v", res.Rules, w.rules)
			}
			if len(res.Info) != 1+len(r.Engine)+len(r.Game) || res.Info[0].Key != "net_protocol" {
				t.Errorf("info %v", res.Info)
			}
			if res := r.Result(false, false); res.PlayerList != nil || res.Rules != nil || res.PhaseErrors != nil {
				t.Errorf("players and rules not asked for: %+v", res)
			}
		})
	}
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

func TestDecodeTooManyPairs(t *testing.T) {
	b := append(newRequest(cmdExtInfoReply, [4]byte{1, 2, 3, 4})[:len(header)+1], 0x0C, 1, 2, 3, 4)
	b = append(b, bytes.Repeat([]byte{0xFF, 'k'}, maxPairs+1)...)
	if _, err := decode(b); !errors.Is(err, wire.ErrTooLarge) {
		t.Errorf("err = %v, want too large", err)
	}
}

// TestBotsMeaning: cnum counts the clients; Savage has no bots to tell apart.
func TestBotsMeaning(t *testing.T) {
	r, err := decode(prototest.VecFile(t, "ext_basic"))
	if err != nil {
		t.Fatal(err)
	}
	prototest.CheckBots(t, r.Result(true, false), 3, prototest.Unknown, true)
}

// No real Savage capture exists (spec §7): the seeds are the own vectors.
func FuzzDecode(f *testing.F) {
	var seeds [][]byte
	for _, b := range prototest.AllVecs(f) {
		seeds = append(seeds, b)
	}
	prototest.FuzzResults(f, seeds, func(t *testing.T, b []byte) *protocols.Result {
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
