package farmingsimulator

import (
	"fmt"
	"testing"

	"github.com/gameserver-exporter/gameserver_exporter/protocols"
	"github.com/gameserver-exporter/gameserver_exporter/protocols/prototest"
	"github.com/gameserver-exporter/gameserver_exporter/protocols/wire"
)

// The testdata feeds follow the Server and Slots elements in qstat's farmsim.c
// and the Player and Mod attributes gamedig reads; the values are our own.
func TestDecode(t *testing.T) {
	prototest.CheckReplies(t, decoded, func(r *protocols.Result) string {
		var pl []string
		for _, p := range r.PlayerList {
			pl = append(pl, fmt.Sprintf("%s/%g", p.Name, p.Duration))
		}
		return fmt.Sprintf("%s|%s|%s|%s|%v %v %d %v %v", r.Game, r.Name, r.Map, r.Version, r.Players, r.MaxPlayers, r.Modded, pl, r.Mods)
	}, []prototest.ReplyCase{
		{File: "fs22.xml", Want: "Farming Simulator 22|Harvest Co-op|Elmcreek|1.14.0.0|{2 true} {16 true} 2 " +
			"[Farmer Jo/5700 Müller/720] [{Precision Farming FS22_precisionFarming} {Courseplay FS22_courseplay}]"},
		{File: "empty.xml", Want: "Farming Simulator 25|Quiet Fields|Riverbend Springs|1.2.0.0|{0 true} {6 true} 1 [] []"},
		{File: "no_slots.xml", Err: wire.ErrMalformed},
		{File: "truncated.xml", Err: wire.ErrMalformed},
		{File: "html.xml", Err: wire.ErrMalformed},
	})
	if s, err := decode(prototest.File(t, "fs22.xml")); err != nil || s.result(false).PlayerList != nil {
		t.Error("players not asked for, but listed")
	}
}

// decoded is a stats feed's Result with players, for the fuzz and benchmark.
var decoded = prototest.Decoded(decode, func(s *server) *protocols.Result { return s.result(true) })

// The shared checks, and the mods under their cap (past it is an error that is
// not ErrMalformed, which fails the fuzz).
func FuzzDecode(f *testing.F) {
	prototest.FuzzReplies(f, "*.xml", maxPlayers, func(b []byte) (*protocols.Result, error) {
		res, err := decoded(b)
		if err == nil && len(res.Mods) > maxMods {
			return nil, fmt.Errorf("%d mods past the cap", len(res.Mods))
		}
		return res, err
	})
}

func BenchmarkDecode(b *testing.B) {
	prototest.DecodeBench(b, prototest.File(b, "fs22.xml"), decoded.Err)
}
