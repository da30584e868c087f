package starmade

import (
	"os"
	"strings"
	"testing"

	"github.com/gameserver-exporter/gameserver_exporter/protocols/prototest"
)

// FuzzDecode: no answer panics the decoder, every error names one reason, and a
// result has counts that are not negative and UTF-8 strings.
func FuzzDecode(f *testing.F) {
	entries, _ := os.ReadDir("testdata")
	for _, e := range entries {
		if name, ok := strings.CutSuffix(e.Name(), ".hex"); ok {
			f.Add(vec(f, name))
		}
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		res, err := decodeAnswer(b)
		if err != nil {
			prototest.CheckReason(t, err)
			return
		}
		if res.Players.Value < 0 || res.MaxPlayers.Value < 0 {
			t.Fatalf("%+v", res)
		}
		prototest.CheckUTF8(t, res)
	})
}
