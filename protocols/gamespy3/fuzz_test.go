package gamespy3

import (
	"testing"

	gt "github.com/gameserver-exporter/gameserver_exporter/protocols/internal/gamespy/gamespytest"
)

// seeds adds every testdata vector and every GameSpy v3 capture, each split set
// joined into one input.
func seeds(f *testing.F) {
	gt.Seeds(f, "gamespy3", []string{"*.bin"}, vector(f, "split3"), vector(f, "missing_middle"), vector(f, "two_last"))
}

// FuzzDecode feeds one or more stat reply datagrams to the decoder.
func FuzzDecode(f *testing.F) {
	seeds(f)
	f.Fuzz(func(t *testing.T, b []byte) {
		res, err := decode(gt.Split(b)...)
		gt.CheckDecoded(t, res, err, maxRows)
	})
}

// FuzzDecodeJC2MP feeds one datagram to the Just Cause 2 MP decoder.
func FuzzDecodeJC2MP(f *testing.F) {
	seeds(f)
	f.Fuzz(func(t *testing.T, b []byte) {
		res, err := decodeJC2MP(b)
		gt.CheckDecoded(t, res, err, min(maxRows, maxJC2Players))
	})
}
