package armagetron

import (
	"testing"
	"unicode/utf8"

	"github.com/gameserver-exporter/gameserver_exporter/protocols/prototest"
)

// FuzzDecodeReply checks that no datagram panics the decoder, that errors
// carry a reason, that strings are valid UTF-8 and the name list is capped.
func FuzzDecodeReply(f *testing.F) {
	for _, b := range append(prototest.HexFiles(f), prototest.Captures("armagetron_armagetron_armagetron-*.resp.bin")...) {
		f.Add(b)
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		s, err := decodeReply(b)
		if err != nil {
			prototest.CheckReason(t, err)
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
