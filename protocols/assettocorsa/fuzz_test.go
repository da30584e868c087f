package assettocorsa

import (
	"errors"
	"testing"
	"unicode/utf8"

	"github.com/gameserver-exporter/gameserver_exporter/protocols/prototest"
	"github.com/gameserver-exporter/gameserver_exporter/protocols/wire"
)

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
