package gamespy1

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/gameserver-exporter/gameserver_exporter/protocols/internal/gamespy/gamespytest"
)

// FuzzDecode feeds one reply of one or more datagrams to the decoder.
func FuzzDecode(f *testing.F) {
	var joined [][][]byte
	names, _ := filepath.Glob(filepath.Join("testdata", "*.1.bin"))
	for _, n := range names {
		joined = append(joined, readParts(f, strings.TrimSuffix(filepath.Base(n), ".1.bin")))
	}
	gamespytest.Seeds(f, "gamespy1", []string{"*.bin"}, joined...)
	f.Fuzz(func(t *testing.T, b []byte) {
		res, err := decode(gamespytest.Split(b))
		gamespytest.CheckDecoded(t, res, err, maxPlayers)
	})
}
