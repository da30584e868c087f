package cs2d

import (
	"errors"
	"reflect"
	"testing"

	"github.com/gameserver-exporter/gameserver_exporter/protocols"
	"github.com/gameserver-exporter/gameserver_exporter/protocols/prototest"
	"github.com/gameserver-exporter/gameserver_exporter/protocols/wire"
)

// The own test vectors in testdata/*.vec are escaped hex written by hand from
// gamedig's reader (format: prototest.ParseVec).

func known(v int64) protocols.Count { return protocols.Known(v) }

func TestDecodeVectors(t *testing.T) {
	type want struct {
		name, mapName, game string
		players, bots, max  protocols.Count
		password            protocols.Flag
		list                []protocols.Player
		playersErr          error
		rules               map[string]string // a subset
	}
	tests := []struct {
		vec  string
		err  error
		want want
	}{
		{vec: "full", want: want{
			name: "Dust Town", mapName: "de_dust", game: "team deathmatch",
			players: known(3), bots: known(2), max: known(16), password: protocols.FlagTrue,
			list: []protocols.Player{
				{Name: "Alice", Team: "terrorists", Score: known(12)},
				{Name: "Bob", Team: "counter-terrorists", Score: known(-2)},
				{Name: "Carol", Team: "spectator", Score: known(0)},
				{Name: "Bot1", Team: "terrorists", Score: known(4)},
				{Name: "Bot2", Team: "counter-terrorists", Score: known(1)},
			},
			rules: map[string]string{"lua": "1", "fog_of_war": "0", "recoil": "1", "offscreen_damage": "0", "downloads": "1", "game_mode": "2"},
		}},
		{vec: "nolist", want: want{
			name: "Plain", mapName: "cs2d_gm", players: known(0), bots: known(0), max: known(32),
			password: protocols.FlagFalse, playersErr: wire.ErrServer,
			rules: map[string]string{"lua": "0", "friendly_fire": "0"},
		}},
		{vec: "cp1252", want: want{
			name: prototest.MafiaNameText, mapName: "cs2d_gm", players: known(0), bots: known(0), max: known(32),
			password: protocols.FlagFalse, playersErr: wire.ErrServer,
		}},
		{vec: "cut_players", want: want{
			name: "Cutter", mapName: "aim_x", players: known(2), bots: known(0), max: known(12),
			password: protocols.FlagFalse, playersErr: wire.ErrTruncated,
			list:  []protocols.Player{{Name: "Alice", Team: "terrorists", Score: known(12)}},
			rules: map[string]string{"friendly_fire": "1"},
		}},
		{vec: "bad_list_header", want: want{
			name: "Other", mapName: "aim_x", players: known(1), bots: known(0), max: known(12),
			password: protocols.FlagFalse, playersErr: wire.ErrMalformed,
		}},
		{vec: "lying_bots", want: want{
			name: "Liar", mapName: "aim_x", players: known(2), max: known(12), password: protocols.FlagFalse,
		}},
		{vec: "short", err: wire.ErrTruncated},
		{vec: "stray", err: wire.ErrMalformed},
	}
	for _, tc := range tests {
		t.Run(tc.vec, func(t *testing.T) {
			r, err := decode(prototest.VecFile(t, tc.vec))
			if prototest.WantedError(t, err, tc.err) {
				return
			}
			w := tc.want
			res := r.Result(true, true)
			got := []any{res.Name, res.Map, res.Game, res.Players, res.Bots, res.MaxPlayers, res.Password}
			exp := []any{w.name, w.mapName, w.game, w.players, w.bots, w.max, w.password}
			if !reflect.DeepEqual(got, exp) {
				t.Errorf("result %v, want %v", got, exp)
			}
			if !reflect.DeepEqual(res.PlayerList, w.list) {
				t.Errorf("players %+v, want %+v", res.PlayerList, w.list)
			}
			switch {
			case w.playersErr == nil && res.PhaseErrors != nil:
				t.Errorf("phase errors %v", res.PhaseErrors)
			case w.playersErr != nil && (len(res.PhaseErrors) != 1 || res.PhaseErrors[0].Phase != "players" || !errors.Is(res.PhaseErrors[0].Err, w.playersErr)):
				t.Errorf("phase errors %v, want players: %v", res.PhaseErrors, w.playersErr)
			}
			rules := map[string]string{}
			for _, kv := range res.Rules {
				rules[kv.Key] = kv.Value
			}
			for k, v := range w.rules {
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

// TestBotsMeaning: the players byte counts bots too (they take slots) and the
// bots byte says how many; the list carries no bot mark, so it is not checked.
// A bots byte above the players byte leaves the total as sent and bots unknown.
func TestBotsMeaning(t *testing.T) {
	for vec, want := range map[string][2]int64{"full": {3, 2}, "nolist": {0, 0}, "lying_bots": {2, prototest.Unknown}} {
		r, err := decode(prototest.VecFile(t, vec))
		prototest.NoError(t, err)
		prototest.CheckBots(t, r.Result(true, false), want[0], want[1], false)
	}
}

// No real CS2D capture is committed: the seeds are the own vectors.
func FuzzDecode(f *testing.F) { prototest.FuzzVecs(f, 255, decoded) }

// decoded is decode and the Result it leads to, players and rules on.
var decoded = prototest.Decoded(decode, func(r *reply) *protocols.Result { return r.Result(true, true) })

func BenchmarkDecode(b *testing.B) {
	prototest.DecodeBench(b, prototest.VecFile(b, "full"), decoded.Err)
}
