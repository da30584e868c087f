package openttd

import (
	"bytes"
	"testing"
	"unicode/utf8"

	"github.com/gameserver-exporter/gameserver_exporter/protocols/prototest"
	"github.com/gameserver-exporter/gameserver_exporter/protocols/wire"
)

// FuzzDecodePacket checks that no packet panics the decoder or the reader,
// that errors carry a reason and that strings come out as valid UTF-8.
func FuzzDecodePacket(f *testing.F) {
	for _, b := range append(prototest.HexFiles(f), prototest.Captures("openttd_openttd_openttd-tcp-gameinfo.resp.bin")...) {
		f.Add(b)
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		// the stream reader must agree with the decoder on framing
		if pkt, err := readPacket(bytes.NewReader(b)); err == nil && len(pkt) > maxPacket {
			t.Fatalf("read %d bytes", len(pkt))
		}
		g, err := decodePacket(b)
		if err != nil {
			if r := wire.Reason(err); r == "other" || r == "" {
				t.Fatalf("error without a reason: %v", err)
			}
			return
		}
		res := g.Result(true)
		for _, s := range []string{res.Name, res.Version, res.Map} {
			if !utf8.ValidString(s) {
				t.Fatalf("invalid UTF-8 %q", s)
			}
		}
		if len(g.NewGRFs) > 255 {
			t.Fatalf("%d newgrfs", len(g.NewGRFs))
		}
	})
}
