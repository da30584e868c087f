package nadeo

import (
	"os"
	"strings"
	"testing"

	"github.com/gameserver-exporter/gameserver_exporter/protocols"
	"github.com/gameserver-exporter/gameserver_exporter/protocols/prototest"
)

// FuzzDecode: no answer panics the decoders, every error names one reason, and
// what decodes has UTF-8 strings.
func FuzzDecode(f *testing.F) {
	entries, _ := os.ReadDir("testdata")
	for _, e := range entries {
		if name, ok := strings.CutSuffix(e.Name(), ".xml"); ok {
			f.Add(vec(f, name))
		}
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		v, err := decodeResponse(b)
		if err != nil {
			prototest.CheckReason(t, err)
			return
		}
		res := &protocols.Result{}
		for _, err := range []error{serverName(v, res), playerLimit(v, res), mapInfo(v, res)} {
			if err != nil {
				prototest.CheckReason(t, err)
			}
		}
		if _, err := version(v, res); err != nil {
			prototest.CheckReason(t, err)
		}
		list, err := playerList(v)
		if err != nil {
			prototest.CheckReason(t, err)
		}
		res.PlayerList = list
		prototest.CheckUTF8(t, res)
	})
}
