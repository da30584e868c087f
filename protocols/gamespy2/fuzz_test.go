package gamespy2

import (
	"testing"

	gt "github.com/gameserver-exporter/gameserver_exporter/protocols/internal/gamespy/gamespytest"
)

// FuzzDecode feeds one or more reply datagrams to the decoder.
func FuzzDecode(f *testing.F) {
	gt.Seeds(f, "gamespy2", []string{"*.bin"}, vector(f, "halo_like"), vector(f, "aa_no_count"), vector(f, "empty_tables"))
	f.Fuzz(func(t *testing.T, b []byte) {
		res, err := decode(gt.Split(b)...)
		gt.CheckDecoded(t, res, err, maxRows)
	})
}
