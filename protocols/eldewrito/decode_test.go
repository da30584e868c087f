package eldewrito

import (
	"errors"
	"fmt"
	"testing"

	"github.com/gameserver-exporter/gameserver_exporter/protocols"
	"github.com/gameserver-exporter/gameserver_exporter/protocols/prototest"
	"github.com/gameserver-exporter/gameserver_exporter/protocols/wire"
)

// The testdata replies follow the object ElDewrito's info server writes; the
// values are our own.
func TestDecode(t *testing.T) {
	tests := []struct {
		file    string
		authed  bool
		err     error
		want    string // name|map|game|version|players max password
		players string
		phase   error
	}{
		{file: "open.json", want: "Blood Gulch 24/7|Valhalla|slayer|0.6.1.0|{2 true} {16 true} 1", players: "[Chief/0/12 Arbiter/1/9]"},
		{file: "open.json", authed: true, want: "Blood Gulch 24/7|Valhalla|slayer|0.6.1.0|{2 true} {16 true} 0", players: "[Chief/0/12 Arbiter/1/9]"},
		{file: "passworded.json", want: "Private|Guardian|slayer|0.6.1.0|{5 true} {16 true} 2", players: "[]", phase: wire.ErrServer},
		{file: "passworded.json", authed: true, want: "Private|Guardian|slayer|0.6.1.0|{5 true} {16 true} 2", players: "[]", phase: wire.ErrServer},
		{file: "not_eldewrito.json", err: wire.ErrMalformed},
		{file: "truncated.json", err: wire.ErrMalformed},
	}
	for _, tc := range tests {
		t.Run(fmt.Sprint(tc.file, tc.authed), func(t *testing.T) {
			in, err := decode(prototest.File(t, tc.file))
			if prototest.WantedError(t, err, tc.err) {
				return
			}
			res := in.result(true, true, tc.authed)
			if got := fmt.Sprintf("%s|%s|%s|%s|%v %v %d", res.Name, res.Map, res.Game, res.Version, res.Players, res.MaxPlayers, res.Password); got != tc.want {
				t.Errorf("result %s, want %s", got, tc.want)
			}
			var pl []string
			for _, p := range res.PlayerList {
				pl = append(pl, fmt.Sprintf("%s/%s/%d", p.Name, p.Team, p.Score.Value))
			}
			if got := fmt.Sprint(pl); got != tc.players {
				t.Errorf("players %s, want %s", got, tc.players)
			}
			if (tc.phase == nil) != (res.PhaseErrors == nil) || (tc.phase != nil && !errors.Is(res.PhaseErrors[0].Err, tc.phase)) {
				t.Errorf("phase errors %v, want %v", res.PhaseErrors, tc.phase)
			}
			prototest.CheckBots(t, res, res.Players.Value, prototest.Unknown, true) // Halo Online has no bots
			if tc.file == "open.json" && len(res.Rules) != 2 {
				t.Errorf("rules %v", res.Rules)
			}
		})
	}
}

// decoded is an info reply's Result with players and rules, unauthenticated,
// for the fuzz and benchmark.
var decoded = prototest.Decoded(decode, func(s *info) *protocols.Result { return s.result(true, true, false) })

func FuzzDecode(f *testing.F) { prototest.FuzzReplies(f, "*.json", maxPlayers, decoded) }

func BenchmarkDecode(b *testing.B) {
	prototest.DecodeBench(b, prototest.File(b, "open.json"), decoded.Err)
}
