package armagetron

import (
	"os"
	"path/filepath"
	"testing"
	"unicode/utf8"

	"github.com/gameserver-exporter/gameserver_exporter/protocols/prototest"
	"github.com/gameserver-exporter/gameserver_exporter/protocols/wire"
)

// FuzzDecodeReply checks that no datagram panics the decoder, that errors
// carry a reason, that strings are valid UTF-8 and the name list is capped.
func FuzzDecodeReply(f *testing.F) {
	files, _ := filepath.Glob(filepath.Join("testdata", "*.hex"))
	for _, p := range files {
		f.Add(loadHex(f, filepath.Base(p)))
	}
	if s := prototest.SharedDir(); s != "" {
		for _, n := range []string{"armagetron_armagetron_armagetron-big.resp.bin", "armagetron_armagetron_armagetron-small.resp.bin"} {
			if b, err := os.ReadFile(filepath.Join(s, "realworld", "captures", n)); err == nil {
				f.Add(b)
			}
		}
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		s, err := decodeReply(b)
		if err != nil {
			if r := wire.Reason(err); r == "other" || r == "" {
				t.Fatalf("error without a reason: %v", err)
			}
			return
		}
		if len(s.Users) > maxPlayerNames {
			t.Fatalf("%d names kept", len(s.Users))
		}
		res := s.Result(true, true)
		for _, v := range append([]string{res.Name, res.Version}, s.Users...) {
			if !utf8.ValidString(v) {
				t.Fatalf("invalid UTF-8 %q", v)
			}
		}
	})
}

func FuzzStripColors(f *testing.F) {
	for _, s := range []string{"0xff0000red", "0xRESETT", "0x", "a0x12345g"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if out := stripColors(s); len(out) > len(s) {
			t.Fatalf("%q grew to %q", s, out)
		}
	})
}
