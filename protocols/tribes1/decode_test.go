package tribes1

import (
	"errors"
	"fmt"
	"testing"

	"github.com/gameserver-exporter/gameserver_exporter/protocols"
	"github.com/gameserver-exporter/gameserver_exporter/protocols/prototest"
	"github.com/gameserver-exporter/gameserver_exporter/protocols/wire"
)

// The own test vectors in testdata/*.vec are escaped hex built from
// qstat's and gamedig's readers (format: prototest.ParseVec).

func known(v int64) protocols.Count { return protocols.Known(v) }

func TestDecodeVectors(t *testing.T) {
	tests := []struct {
		vec                          string
		err                          error
		name, mapName, game, version string
		players, max                 protocols.Count
		password                     protocols.Flag
		list                         string // fmt of the player list
		playersErr                   error
		info                         map[string]string // a subset
	}{
		{
			vec: "tribes", name: "Tribes Arena é", mapName: "Raindance", game: "CTF", version: "1.11",
			players: known(2), max: known(16), password: protocols.FlagFalse,
			list: "[{Alice {15 true} {100 true} 0 false Blood Eagle false} {Bob {-1 true} {40 true} 0 false Diamond Sword false}]",
			info: map[string]string{"game": "Tribes", "mod": "base", "cpu": "450", "dedicated": "1", "teams": "2",
				"team_score_Blood Eagle": "12", "team_score_Diamond Sword": "7", "motd": "Welcome\nAdmin: Ann"},
		},
		{
			vec: "cut_players", name: "Tribes Arena é", mapName: "Raindance", game: "CTF", version: "1.11",
			players: known(2), max: known(16), password: protocols.FlagFalse,
			list:       "[{Alice {15 true} {100 true} 0 false Blood Eagle false}]",
			playersErr: wire.ErrTruncated,
		},
		{
			vec: "no_teams", name: "Empty", mapName: "Broadside", game: "DM", version: "1.40",
			players: known(0), max: known(8), password: protocols.FlagTrue, list: "[]",
			info: map[string]string{"teams": "0", "motd": ""},
		},
		{
			vec: "starsiege", name: "Mech Arena", mapName: "Coliseum", game: "Starsiege", version: "1.004r",
			players: known(2), max: known(16), password: protocols.FlagTrue,
			list: "[{Harabec {0 false} {0 false} 0 false red false} {Caanon {0 false} {0 false} 0 false blue false}]",
			info: map[string]string{"frag_limit": "20", "time_limit": "30", "mass_limit": "100", "drop_in_progress": "1", "game_in_progress": "0", "cpu": "900"},
		},
		{vec: "short", err: wire.ErrTruncated},
	}
	for _, tc := range tests {
		t.Run(tc.vec, func(t *testing.T) {
			r, err := decode(prototest.VecFile(t, tc.vec))
			if prototest.WantedError(t, err, tc.err) {
				return
			}
			res := r.Result(true, true)
			got := fmt.Sprint(res.Name, "|", res.Map, "|", res.Game, "|", res.Version, "|", res.Players, res.MaxPlayers, res.Password)
			want := fmt.Sprint(tc.name, "|", tc.mapName, "|", tc.game, "|", tc.version, "|", tc.players, tc.max, tc.password)
			if got != want {
				t.Errorf("result %s, want %s", got, want)
			}
			if l := fmt.Sprint(res.PlayerList); l != tc.list && !(tc.list == "[]" && res.PlayerList == nil) {
				t.Errorf("players %s, want %s", l, tc.list)
			}
			switch {
			case tc.playersErr == nil && res.PhaseErrors != nil:
				t.Errorf("phase errors %v", res.PhaseErrors)
			case tc.playersErr != nil && (len(res.PhaseErrors) != 1 || !errors.Is(res.PhaseErrors[0].Err, tc.playersErr)):
				t.Errorf("phase errors %v, want players: %v", res.PhaseErrors, tc.playersErr)
			}
			prototest.CheckInfoHas(t, res, tc.info)
			if res := r.Result(false, false); res.PlayerList != nil || res.Rules != nil || res.PhaseErrors != nil {
				t.Errorf("players and rules not asked for: %+v", res)
			}
		})
	}
}

func TestAnswers(t *testing.T) {
	b := prototest.VecFile(t, "tribes")
	if err := answers(b, reqTribes, 0xFFEE); err != nil {
		t.Errorf("the reply does not answer: %v", err)
	}
	if err := answers(b, reqTribes, 0xFFEF); !errors.Is(err, wire.ErrMismatch) {
		t.Errorf("another echo: %v", err)
	}
	if err := answers(b, reqStarsiege, 0xFFEE); !errors.Is(err, wire.ErrMalformed) {
		t.Errorf("a Tribes reply to a Starsiege request: %v", err)
	}
	if err := answers(b[:3], reqTribes, 0xFFEE); !errors.Is(err, wire.ErrMalformed) {
		t.Errorf("3 bytes: %v", err)
	}
	if got := newRequest(reqTribes, 0x2A2A); string(got) != "b**" { // qstat's request
		t.Errorf("request %q", got)
	}
}

func TestFields(t *testing.T) {
	if got := fmt.Sprint(fields("Player Name\t\x05Team\t\x05Score")); got != "[name team score]" {
		t.Errorf("fields %s", got)
	}
	if fields("") != nil || values("") != nil {
		t.Error("empty column strings give columns")
	}
}

// TestPascalWindows1252: the game's strings are the Windows code page, so
// 0x80-0x9F are marks (– „ “ €), not control characters.
func TestPascalWindows1252(t *testing.T) {
	b := append([]byte{byte(len(prototest.MafiaName))}, prototest.MafiaName...)
	rd := wire.NewReader(b)
	if got := pascal(&rd, "name"); got != prototest.MafiaNameText || rd.Err() != nil {
		t.Errorf("%q, %v; want %q", got, rd.Err(), prototest.MafiaNameText)
	}
}

// TestBotsMeaning: the players byte counts the clients; neither layout marks bots.
func TestBotsMeaning(t *testing.T) {
	for _, vec := range []string{"tribes", "starsiege"} {
		r, err := decode(prototest.VecFile(t, vec))
		prototest.NoError(t, err)
		prototest.CheckBots(t, r.Result(true, false), 2, prototest.Unknown, true)
	}
}

// No real Tribes or Starsiege capture is committed: the seeds are the own vectors.
func FuzzDecode(f *testing.F) { prototest.FuzzVecs(f, maxPlayers, decoded) }

// decoded is decode and the Result it leads to, players and rules on.
var decoded = prototest.Decoded(decode, func(r *reply) *protocols.Result { return r.Result(true, true) })

func BenchmarkDecode(b *testing.B) {
	prototest.DecodeBench(b, prototest.VecFile(b, "tribes"), decoded.Err)
}
