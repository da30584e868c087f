package eco

import (
	"fmt"
	"testing"

	"github.com/gameserver-exporter/gameserver_exporter/protocols"
	"github.com/gameserver-exporter/gameserver_exporter/protocols/prototest"
	"github.com/gameserver-exporter/gameserver_exporter/protocols/wire"
)

// The testdata replies are built from the field names gamedig and rust-gamedig
// read; the values are our own. total_players (everyone who ever joined) is
// kept as info.
func TestDecode(t *testing.T) {
	prototest.CheckReplies(t, decoded, func(r *protocols.Result) string {
		total := ""
		for _, kv := range r.Info {
			if kv.Key == "total_players" {
				total = kv.Value
			}
		}
		return fmt.Sprintf("%s|%s|%v %v %d %s total %s", r.Name, r.Version, r.Players, r.MaxPlayers, r.Password, prototest.PlayerNames(r), total)
	}, []prototest.ReplyCase{
		{File: "info.json", Want: "Green Valley EU|0.10.2.4 beta release-612|{3 true} {0 false} 1 [Ada Bram Cleo] total 57"},
		{File: "frontpage.json", Want: "Capped|0.11.0.0|{1 true} {20 true} 2 [Ada] total 4"},
		{File: "not_eco.json", Err: wire.ErrMalformed},
		{File: "truncated.json", Err: wire.ErrMalformed},
	})
	in, err := decode(prototest.File(t, "info.json"))
	prototest.NoError(t, err)
	if in.result(false).PlayerList != nil {
		t.Error("players not asked for, but listed")
	}
	prototest.CheckBots(t, in.result(true), 3, prototest.Unknown, true) // OnlinePlayers: the connected players; Eco has no bots
}

func TestStripTags(t *testing.T) {
	for in, want := range map[string]string{"plain": "plain", "<b>x</b>y": "xy", "a<b": "a<b", "1 < 2 > 0": "1  0", "<i>open": "open"} {
		if got := stripTags(in); got != want {
			t.Errorf("stripTags(%q) = %q, want %q", in, got, want)
		}
	}
}

// decoded is a reply's Result with players, for the fuzz and benchmark.
var decoded = prototest.Decoded(decode, func(s *info) *protocols.Result { return s.result(true) })

func FuzzDecode(f *testing.F) { prototest.FuzzReplies(f, "*.json", maxPlayers, decoded) }

func BenchmarkDecode(b *testing.B) {
	prototest.DecodeBench(b, prototest.File(b, "info.json"), decoded.Err)
}
