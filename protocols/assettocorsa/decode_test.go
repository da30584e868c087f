package assettocorsa

import (
	"errors"
	"fmt"
	"testing"
	"unicode/utf8"

	"github.com/gameserver-exporter/gameserver_exporter/protocols"
	"github.com/gameserver-exporter/gameserver_exporter/protocols/prototest"
	"github.com/gameserver-exporter/gameserver_exporter/protocols/wire"
)

// The testdata replies follow the fields gamedig reads from /INFO and /JSON|;
// the values are our own.
func TestDecodeInfo(t *testing.T) {
	decoded := prototest.Decoded(decodeInfo, (*info).result)
	prototest.CheckReplies(t, decoded, func(r *protocols.Result) string {
		return fmt.Sprintf("%s|%s|%s|%v %v %d", r.Name, r.Map, r.Version, r.Players, r.MaxPlayers, r.Password)
	}, []prototest.ReplyCase{
		{File: "info.json", Want: "ACRL Nordschleife Trackday|ks_nordschleife-endurance|1.16.4|{2 true} {24 true} 1"},
		{File: "info_password.json", Want: "Private League|monza|1.16.4|{0 true} {12 true} 2"},
		{File: "not_ac.json", Err: wire.ErrMalformed},
		{File: "truncated.json", Err: wire.ErrMalformed},
	})
}

func TestDecodeCars(t *testing.T) {
	cars, err := decodeCars(prototest.File(t, "entry_list.json"))
	prototest.NoError(t, err)
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

// Each input goes through both decoders.
func FuzzDecode(f *testing.F) {
	prototest.SeedFiles(f, "*.json")
	f.Fuzz(func(t *testing.T, b []byte) {
		if in, err := decodeInfo(b); err != nil {
			if !errors.Is(err, wire.ErrMalformed) {
				t.Fatalf("error is not malformed: %v", err)
			}
		} else if res := in.result(); res.Players.Value < 0 || !utf8.ValidString(res.Name) {
			t.Fatalf("result %+v", res)
		}
		cars, err := decodeCars(b)
		if err != nil {
			if !errors.Is(err, wire.ErrMalformed) {
				t.Fatalf("error is not malformed: %v", err)
			}
			return
		}
		if len(cars) > maxCars {
			t.Fatalf("%d cars past the cap", len(cars))
		}
		players(cars)
	})
}

func BenchmarkDecode(b *testing.B) {
	list := prototest.File(b, "entry_list.json")
	prototest.DecodeBench(b, prototest.File(b, "info.json"), func(info []byte) error {
		in, err := decodeInfo(info)
		cars, err2 := decodeCars(list)
		if err != nil || err2 != nil {
			return errors.Join(err, err2)
		}
		in.result()
		players(cars)
		return nil
	})
}
