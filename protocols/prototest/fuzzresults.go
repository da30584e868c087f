package prototest

import (
	"testing"

	"github.com/gameserver-exporter/gameserver_exporter/protocols"
)

// FuzzResults fuzzes a decoder from seeds: decode returns the Result a datagram
// gives (nil when the decoder refuses it), asserting on t what is its own; every
// Result must be valid UTF-8 (CheckUTF8) with no negative count.
func FuzzResults(f *testing.F, seeds [][]byte, decode func(t *testing.T, b []byte) *protocols.Result) {
	for _, b := range seeds {
		f.Add(b)
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		res := decode(t, b)
		if res == nil {
			return
		}
		CheckUTF8(t, res)
		for name, c := range map[string]protocols.Count{"players": res.Players, "max": res.MaxPlayers, "bots": res.Bots} {
			if c.Value < 0 {
				t.Errorf("negative %s %+v", name, c)
			}
		}
	})
}

// FuzzDecoder is FuzzResults for a decoder of a whole Result: a refusal names
// its reason (CheckReason) and comes without a Result.
func FuzzDecoder(f *testing.F, seeds [][]byte, decode func([]byte) (*protocols.Result, error)) {
	FuzzResults(f, seeds, func(t *testing.T, b []byte) *protocols.Result {
		res, err := decode(b)
		if err != nil {
			CheckReason(t, err)
			if res != nil {
				t.Fatalf("result %+v with error %v", res, err)
			}
			return nil
		}
		return res
	})
}
