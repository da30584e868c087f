package gamespy2

import (
	"testing"

	"github.com/gameserver-exporter/gameserver_exporter/protocols/internal/gamespy/gamespytest"
)

// FuzzDecode feeds one or more reply datagrams to the decoder.
func FuzzDecode(f *testing.F) {
	gamespytest.Seeds(f, "gamespy2", []string{"*.bin"}, vector(f, "halo_like"), vector(f, "aa_no_count"), vector(f, "empty_tables"))
	f.Fuzz(func(t *testing.T, b []byte) {
		res, err := decode(gamespytest.Split(b)...)
		gamespytest.CheckDecoded(t, res, err, maxRows)
	})
}
