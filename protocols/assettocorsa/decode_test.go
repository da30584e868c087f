package assettocorsa

import (
	"errors"
	"fmt"
	"testing"

	"github.com/gameserver-exporter/gameserver_exporter/protocols/prototest"
	"github.com/gameserver-exporter/gameserver_exporter/protocols/wire"
)

// The testdata replies follow the fields gamedig reads from /INFO and /JSON|;
// the values are our own.
func TestDecodeInfo(t *testing.T) {
	for _, tc := range []struct {
		file string
		err  error
		want string // name|map|version|players max password
	}{
		{file: "info.json", want: "ACRL Nordschleife Trackday|ks_nordschleife-endurance|1.16.4|{2 true} {24 true} 1"},
		{file: "info_password.json", want: "Private League|monza|1.16.4|{0 true} {12 true} 2"},
		{file: "not_ac.json", err: wire.ErrMalformed},
		{file: "truncated.json", err: wire.ErrMalformed},
	} {
		t.Run(tc.file, func(t *testing.T) {
			in, err := decodeInfo(prototest.File(t, tc.file))
			if !errors.Is(err, tc.err) || (err == nil) != (tc.err == nil) {
				t.Fatalf("err = %v, want %v", err, tc.err)
			}
			if err != nil {
				return
			}
			res := in.result()
			if got := fmt.Sprintf("%s|%s|%s|%v %v %d", res.Name, res.Map, res.Version, res.Players, res.MaxPlayers, res.Password); got != tc.want {
				t.Errorf("result %s, want %s", got, tc.want)
			}
		})
	}
}

func TestDecodeCars(t *testing.T) {
	cars, err := decodeCars(prototest.File(t, "entry_list.json"))
	if err != nil {
		t.Fatal(err)
	}
	if got := fmt.Sprint(players(cars)); got != "[{Lena {0 false} {0 false} 0 false Manthey false} {Tom {0 false} {0 false} 0 false bmw_m3_e30 false}]" {
		t.Errorf("players %s", got)
	}
	for _, b := range []string{`{"name":"x"}`, `{"Cars":5}`, `[`} {
		if _, err := decodeCars([]byte(b)); !errors.Is(err, wire.ErrMalformed) {
			t.Errorf("%s: %v", b, err)
		}
	}
	if p := players(nil); p == nil || len(p) != 0 {
		t.Errorf("an empty entry list gives %v, want an empty list", p)
	}
}
