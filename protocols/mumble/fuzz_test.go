package mumble

import (
	"testing"
	"unicode/utf8"

	"github.com/gameserver-exporter/gameserver_exporter/protocols/prototest"
)

func FuzzDecode(f *testing.F) {
	for _, b := range prototest.HexFiles(f) {
		f.Add(b, uint64(vecIdent))
	}
	for _, b := range prototest.Captures("mumble_mumble_mumble-ping.resp.bin") {
		f.Add(b, uint64(0x525750524f424531)) // "RWPROBE1"
	}
	f.Fuzz(func(t *testing.T, b []byte, ident uint64) {
		st, err := decode(b, ident)
		if err != nil {
			return
		}
		if len(b) < replyLen || st.Ident != ident || st.Trailing != len(b)-replyLen {
			t.Fatalf("accepted %d bytes as %+v", len(b), st)
		}
		if res := st.Result(true); !utf8.ValidString(res.Version) || !res.Players.Known || res.Players.Value < 0 {
			t.Fatalf("result %+v", res)
		}
	})
}
