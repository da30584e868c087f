package gamespy4

import (
	"testing"

	"github.com/gameserver-exporter/gameserver_exporter/protocols"
	gt "github.com/gameserver-exporter/gameserver_exporter/protocols/internal/gamespy/gamespytest"
)

// seeds adds every testdata vector and the Minecraft Query captures.
func seeds(f *testing.F) {
	gt.Seeds(f, fixtureProto, []string{"minecraft_*.bin", "pocketmine_*.bin", "mcstatus_*.bin"})
}

func check(t *testing.T, st *stat, err error) {
	var res *protocols.Result
	if st != nil {
		if len(st.players) > maxNames || len(st.kv) > maxPairs {
			t.Fatalf("%d players, %d pairs", len(st.players), len(st.kv))
		}
		res = st.result(true, true)
	}
	gt.CheckDecoded(t, res, err, maxNames)
}

// FuzzDecodeFull feeds one datagram to the full-stat decoder.
func FuzzDecodeFull(f *testing.F) {
	seeds(f)
	f.Fuzz(func(t *testing.T, b []byte) {
		st, err := decodeFull(b)
		check(t, st, err)
	})
}

// FuzzDecodeBasic feeds one datagram to the basic-stat decoder.
func FuzzDecodeBasic(f *testing.F) {
	seeds(f)
	f.Fuzz(func(t *testing.T, b []byte) {
		st, err := decodeBasic(b)
		check(t, st, err)
	})
}
