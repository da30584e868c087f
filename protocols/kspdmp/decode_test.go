package kspdmp

import (
	"errors"
	"fmt"
	"testing"

	"github.com/gameserver-exporter/gameserver_exporter/protocols/prototest"
	"github.com/gameserver-exporter/gameserver_exporter/protocols/wire"
)

// status.json follows the example reply in qstat's ksp.c, with our own values.
func TestDecode(t *testing.T) {
	for _, tc := range []struct {
		file    string
		err     error
		want    string // name|game|version|players max
		players string
	}{
		{file: "status.json", want: "Kerbin Orbital Club|SANDBOX|v0.2.1.4|{2 true} {12 true}", players: "[Jebediah Valentina]"},
		{file: "no_count.json", want: "Empty Space||v0.2.1.4|{0 true} {8 true}", players: "[]"},
		{file: "not_dmp.json", err: wire.ErrMalformed},
		{file: "truncated.json", err: wire.ErrMalformed},
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
			if got := fmt.Sprintf("%s|%s|%s|%v %v", res.Name, res.Game, res.Version, res.Players, res.MaxPlayers); got != tc.want {
				t.Errorf("result %s, want %s", got, tc.want)
			}
			var pl []string
			for _, p := range res.PlayerList {
				pl = append(pl, p.Name)
			}
			if got := fmt.Sprint(pl); got != tc.players {
				t.Errorf("players %s, want %s", got, tc.players)
			}
		})
	}
	if got := fmt.Sprint(names(" a ,, b,")); got != "[a b]" {
		t.Errorf("names %s", got)
	}
}
