package mumble

import (
	"os"
	"path/filepath"
	"testing"
	"unicode/utf8"

	"github.com/gameserver-exporter/gameserver_exporter/protocols/prototest"
)

func FuzzDecode(f *testing.F) {
	files, _ := filepath.Glob(filepath.Join("testdata", "*.hex"))
	for _, p := range files {
		f.Add(loadHex(f, filepath.Base(p)), uint64(vecIdent))
	}
	if s := prototest.SharedDir(); s != "" {
		if b, err := os.ReadFile(filepath.Join(s, "realworld", "captures", "mumble_mumble_mumble-ping.resp.bin")); err == nil {
			f.Add(b, uint64(0x525750524f424531)) // "RWPROBE1"
		}
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
