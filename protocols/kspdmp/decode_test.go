package kspdmp

import (
	"fmt"
	"testing"

	"github.com/gameserver-exporter/gameserver_exporter/protocols"
	"github.com/gameserver-exporter/gameserver_exporter/protocols/prototest"
	"github.com/gameserver-exporter/gameserver_exporter/protocols/wire"
)

// status.json follows the example reply in qstat's ksp.c, with our own values.
func TestDecode(t *testing.T) {
	prototest.CheckReplies(t, decoded, func(r *protocols.Result) string {
		return fmt.Sprintf("%s|%s|%s|%v %v %s", r.Name, r.Game, r.Version, r.Players, r.MaxPlayers, prototest.PlayerNames(r))
	}, []prototest.ReplyCase{
		{File: "status.json", Want: "Kerbin Orbital Club|SANDBOX|v0.2.1.4|{2 true} {12 true} [Jebediah Valentina]"},
		{File: "no_count.json", Want: "Empty Space||v0.2.1.4|{0 true} {8 true} []"},
		{File: "not_dmp.json", Err: wire.ErrMalformed},
		{File: "truncated.json", Err: wire.ErrMalformed},
	})
	s, err := decode(prototest.File(t, "status.json"))
	prototest.NoError(t, err)
	prototest.CheckBots(t, s.result(true), 2, prototest.Unknown, true) // player_count: the connected players; KSP has no bots
}

// The players string splits at commas, blanks dropped.
func TestNames(t *testing.T) {
	if got := fmt.Sprint(names(" a ,, b,")); got != "[a b]" {
		t.Errorf("names %s", got)
	}
}

// decoded is a reply's Result with players, for the fuzz and benchmark.
var decoded = prototest.Decoded(decode, func(s *status) *protocols.Result { return s.result(true) })

func FuzzDecode(f *testing.F) { prototest.FuzzReplies(f, "*.json", maxPlayers, decoded) }

func BenchmarkDecode(b *testing.B) {
	prototest.DecodeBench(b, prototest.File(b, "status.json"), decoded.Err)
}
