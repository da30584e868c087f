package eco

import (
	"errors"
	"fmt"
	"testing"

	"github.com/gameserver-exporter/gameserver_exporter/protocols/prototest"
	"github.com/gameserver-exporter/gameserver_exporter/protocols/wire"
)

// The testdata replies are built from the field names gamedig and rust-gamedig
// read; the values are our own.
func TestDecode(t *testing.T) {
	tests := []struct {
		file    string
		err     error
		want    string // name|version|players max password
		players string
		total   string
	}{
		{file: "info.json", want: "Green Valley EU|0.10.2.4 beta release-612|{3 true} {0 false} 1", players: "[Ada Bram Cleo]", total: "57"},
		{file: "frontpage.json", want: "Capped|0.11.0.0|{1 true} {20 true} 2", players: "[Ada]", total: "4"},
		{file: "not_eco.json", err: wire.ErrMalformed},
		{file: "truncated.json", err: wire.ErrMalformed},
	}
	for _, tc := range tests {
		t.Run(tc.file, func(t *testing.T) {
			in, err := decode(prototest.File(t, tc.file))
			if !errors.Is(err, tc.err) || (err == nil) != (tc.err == nil) {
				t.Fatalf("err = %v, want %v", err, tc.err)
			}
			if err != nil {
				return
			}
			res := in.result(true)
			if got := fmt.Sprintf("%s|%s|%v %v %d", res.Name, res.Version, res.Players, res.MaxPlayers, res.Password); got != tc.want {
				t.Errorf("result %s, want %s", got, tc.want)
			}
			var names []string
			for _, p := range res.PlayerList {
				names = append(names, p.Name)
			}
			if got := fmt.Sprint(names); got != tc.players {
				t.Errorf("players %s, want %s", got, tc.players)
			}
			var total string
			for _, kv := range res.Info {
				if kv.Key == "total_players" {
					total = kv.Value
				}
			}
			if total != tc.total {
				t.Errorf("total_players %q, want %q", total, tc.total)
			}
			if in.result(false).PlayerList != nil {
				t.Error("players not asked for")
			}
		})
	}
}

func TestStripTags(t *testing.T) {
	for in, want := range map[string]string{"plain": "plain", "<b>x</b>y": "xy", "a<b": "a<b", "1 < 2 > 0": "1  0", "<i>open": "open"} {
		if got := stripTags(in); got != want {
			t.Errorf("stripTags(%q) = %q, want %q", in, got, want)
		}
	}
}
