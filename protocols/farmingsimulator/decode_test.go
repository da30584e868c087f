package farmingsimulator

import (
	"errors"
	"fmt"
	"testing"

	"github.com/gameserver-exporter/gameserver_exporter/protocols/prototest"
	"github.com/gameserver-exporter/gameserver_exporter/protocols/wire"
)

// The testdata feeds follow the Server and Slots elements in qstat's farmsim.c
// and the Player and Mod attributes gamedig reads; the values are our own.
func TestDecode(t *testing.T) {
	for _, tc := range []struct {
		file    string
		err     error
		want    string // game|name|map|version|players max modded
		players string
		mods    string
	}{
		{file: "fs22.xml", want: "Farming Simulator 22|Harvest Co-op|Elmcreek|1.14.0.0|{2 true} {16 true} 2",
			players: "[Farmer Jo/5700 Müller/720]", mods: "[{Precision Farming FS22_precisionFarming} {Courseplay FS22_courseplay}]"},
		{file: "empty.xml", want: "Farming Simulator 25|Quiet Fields|Riverbend Springs|1.2.0.0|{0 true} {6 true} 1", players: "[]", mods: "[]"},
		{file: "no_slots.xml", err: wire.ErrMalformed},
		{file: "truncated.xml", err: wire.ErrMalformed},
		{file: "html.xml", err: wire.ErrMalformed},
	} {
		t.Run(tc.file, func(t *testing.T) {
			s, err := decode(prototest.File(t, tc.file))
			if !errors.Is(err, tc.err) || (err == nil) != (tc.err == nil) {
				t.Fatalf("err = %v, want %v", err, tc.err)
			}
			if err != nil {
				return
			}
			res := s.result(true)
			if got := fmt.Sprintf("%s|%s|%s|%s|%v %v %d", res.Game, res.Name, res.Map, res.Version, res.Players, res.MaxPlayers, res.Modded); got != tc.want {
				t.Errorf("result %s, want %s", got, tc.want)
			}
			var pl []string
			for _, p := range res.PlayerList {
				pl = append(pl, fmt.Sprintf("%s/%g", p.Name, p.Duration))
			}
			if got := fmt.Sprint(pl); got != tc.players {
				t.Errorf("players %s, want %s", got, tc.players)
			}
			if got := fmt.Sprint(res.Mods); got != tc.mods {
				t.Errorf("mods %s, want %s", got, tc.mods)
			}
			if s.result(false).PlayerList != nil {
				t.Error("players not asked for")
			}
		})
	}
}
