package savage2

import (
	"errors"
	"fmt"
	"testing"

	"github.com/gameserver-exporter/gameserver_exporter/protocols"
	"github.com/gameserver-exporter/gameserver_exporter/protocols/prototest"
	"github.com/gameserver-exporter/gameserver_exporter/protocols/wire"
)

// The own test vectors in testdata/*.vec are escaped hex built from
// the jxqf notes' layout (format: prototest.ParseVec). The players byte counts
// clients; Savage 2 has no bots to tell apart (Bots unknown) and no player list.

func TestDecodeVectors(t *testing.T) {
	tests := []struct {
		vec  string
		err  error
		want string // name|map|game|version|players max bots password
		info map[string]string
		tail error
	}{
		{vec: "full", want: "Newerth Front|crossroads|HvB|2.1.0.1|{7 true} {20 true} {0 false} 2",
			info: map[string]string{"time": "00:12:40", "next_map": "moonlight", "location": "Berlin, DE", "min_players": "3", "stats": "1", "game_mode": "HvB", "header": "9ade97f1015c3b0211223344"}},
		{vec: "waiting", want: "Quiet|duel_arena|HvB|2.1.0.1|{0 true} {10 true} {0 false} 1",
			info: map[string]string{"time": "Waiting", "stats": "0", "min_players": "2"}},
		{vec: "modern", want: "Legends|eden2|CTF|2.1.0.1|{12 true} {32 true} {0 false} 0",
			info: map[string]string{"min_players": "4", "min_level": "5", "game_mode": "CTF"}},
		{vec: "no_tail", want: "Old|eden|||{1 true} {8 true} {0 false} 0", info: map[string]string{"location": "Nowhere"}},
		{vec: "cp1252", want: "Empire Bay – „Cash & Cars“ €5 VIP|eden|||{1 true} {8 true} {0 false} 0", info: map[string]string{"location": "Nowhere"}},
		{vec: "cut_tail", want: "Cut|eden|||{1 true} {8 true} {0 false} 0", tail: wire.ErrTruncated},
		{vec: "short", err: wire.ErrTruncated},
	}
	for _, tc := range tests {
		t.Run(tc.vec, func(t *testing.T) {
			r, err := decode(prototest.VecFile(t, tc.vec))
			if prototest.WantedError(t, err, tc.err) {
				return
			}
			res := r.Result(true)
			got := fmt.Sprintf("%s|%s|%s|%s|%v %v %v %d", res.Name, res.Map, res.Game, res.Version, res.Players, res.MaxPlayers, res.Bots, res.Password)
			if got != tc.want {
				t.Errorf("result %s, want %s", got, tc.want)
			}
			prototest.CheckInfoHas(t, res, tc.info)
			if !errors.Is(r.TailErr, tc.tail) || (r.TailErr == nil) != (tc.tail == nil) {
				t.Errorf("tail error %v, want %v", r.TailErr, tc.tail)
			}
			if (res.Password != protocols.FlagUnknown) != r.HasPassword {
				t.Errorf("password %d, the layout sends one: %v", res.Password, r.HasPassword)
			}
			if res := r.Result(false); res.Rules != nil || res.PlayerList != nil {
				t.Error("rules not asked for")
			}
		})
	}
}

// No real Savage 2 capture is committed: the seeds are the own vectors.
func FuzzDecode(f *testing.F) { prototest.FuzzVecs(f, 0, decoded) }

// decoded is decode and the Result it leads to, rules on.
var decoded = prototest.Decoded(decode, func(r *reply) *protocols.Result { return r.Result(true) })

func BenchmarkDecode(b *testing.B) {
	prototest.DecodeBench(b, prototest.VecFile(b, "full"), decoded.Err)
}
