package savage

import (
	"bytes"
	"errors"
	"reflect"
	"testing"

	"github.com/gameserver-exporter/gameserver_exporter/protocols"
	"github.com/gameserver-exporter/gameserver_exporter/protocols/prototest"
	"github.com/gameserver-exporter/gameserver_exporter/protocols/wire"
)

func known(v int64) protocols.Count { return protocols.Known(v) }

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
	type want struct {
		name, mapName, game, version string
		players, max                 protocols.Count
		password                     protocols.Flag
		list                         []protocols.Player
		rules                        []protocols.KV
		phases                       map[string]error
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
				name: "Newerth Arena", mapName: "eden2", game: "RTSS", version: "12",
				players: known(3), max: known(16), password: protocols.FlagTrue,
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
				name: "Basic", mapName: "crossroads", game: "DM", version: "10",
				players: known(0), max: known(32), password: protocols.FlagFalse,
				rules: []protocols.KV{
					{Key: "gametype", Value: "DM"}, {Key: "needcmdr", Value: "1"}, {Key: "pass", Value: "0"},
					{Key: "race1", Value: "human"}, {Key: "race2", Value: "human"}, {Key: "demo", Value: "0"},
					{Key: "pure", Value: "0"}, {Key: "bal", Value: "1"},
				},
				phases: map[string]error{"players": wire.ErrServer},
			},
		},
		{
			vec: "xr", cmd: cmdExtInfoReply, echo: [4]byte{0x10, 0x20, 0x30, 0x40},
			want: want{
				name: "XR Café", mapName: "moonlight", game: "RTSS", version: "XR 1.3",
				players: known(7), max: known(24), password: protocols.FlagFalse,
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
				name: "Cut", mapName: "eden2", game: "RTSS", version: "12",
				players: known(2), max: known(10), password: protocols.FlagFalse,
				list:   []protocols.Player{{Name: "Alice", Team: "Team 1 (human)"}, {Name: "Bo", Team: "Team 1 (human)"}},
				rules:  []protocols.KV{{Key: "gametype", Value: "RTSS"}, {Key: "pass", Value: "0"}},
				phases: map[string]error{"players": wire.ErrTruncated, "rules": wire.ErrTruncated},
			},
		},
		{
			vec: "engine_truncated", cmd: cmdExtInfoReply, echo: [4]byte{1, 2, 3, 4}, truncated: true,
			want: want{
				name: "Half", mapName: "ed", version: "12",
				phases: map[string]error{"players": wire.ErrTruncated, "rules": wire.ErrTruncated},
			},
		},
		{
			vec: "no_players_key", cmd: cmdExtInfoReply, echo: [4]byte{1, 2, 3, 4},
			want: want{
				name: "Full", mapName: "eden2", game: "RTSS", version: "12",
				players: known(20), max: known(20), password: protocols.FlagFalse,
				rules:  []protocols.KV{{Key: "gametype", Value: "RTSS"}, {Key: "pass", Value: "0"}, {Key: "timelimit", Value: "0"}},
				phases: map[string]error{"players": wire.ErrTooLarge},
			},
		},
		{
			vec: "cp1252", cmd: cmdExtInfoReply, echo: [4]byte{1, 2, 3, 4},
			want: want{
				name: prototest.MafiaNameText, mapName: "eden2", game: "RTSS", version: "12",
				players: known(20), max: known(20), password: protocols.FlagFalse,
				rules:  []protocols.KV{{Key: "gametype", Value: "RTSS"}, {Key: "pass", Value: "0"}, {Key: "timelimit", Value: "0"}},
				phases: map[string]error{"players": wire.ErrTooLarge},
			},
		},
		{
			vec: "empty_strings", cmd: cmdExtInfoReply, echo: [4]byte{1, 2, 3, 4},
			want: want{version: "12"},
		},
		{vec: "short", err: wire.ErrTruncated},
		{vec: "bad_flags", err: wire.ErrMalformed},
		{vec: "ping_reply", err: wire.ErrMalformed},
	}
	for _, tc := range tests {
		t.Run(tc.vec, func(t *testing.T) {
			r, err := decode(prototest.VecFile(t, tc.vec))
			if tc.err != nil {
				if !errors.Is(err, tc.err) {
					t.Fatalf("err = %v, want %v", err, tc.err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if r.Cmd != tc.cmd || r.Echo != tc.echo || r.Truncated != tc.truncated {
				t.Errorf("cmd %02X echo % X truncated %v", r.Cmd, r.Echo, r.Truncated)
			}
			res := r.Result(true, true)
			w := tc.want
			got := []any{res.Name, res.Map, res.Game, res.Version, res.Players, res.MaxPlayers, res.Password}
			exp := []any{w.name, w.mapName, w.game, w.version, w.players, w.max, w.password}
			if !reflect.DeepEqual(got, exp) {
				t.Errorf("result %q, want %q", got, exp)
			}
			if !reflect.DeepEqual(res.PlayerList, w.list) {
				t.Errorf("players %+v, want %+v", res.PlayerList, w.list)
			}
			if !reflect.DeepEqual(res.Rules, w.rules) {
				t.Errorf("rules %v, want %v", res.Rules, w.rules)
			}
			if len(res.PhaseErrors) != len(w.phases) {
				t.Errorf("phase errors %v, want %v", res.PhaseErrors, w.phases)
			}
			for _, pe := range res.PhaseErrors {
				if !errors.Is(pe.Err, w.phases[pe.Phase]) {
					t.Errorf("phase %s error %v, want %v", pe.Phase, pe.Err, w.phases[pe.Phase])
				}
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
