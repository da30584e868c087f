package openttd

import (
	"bytes"
	"testing"

	"github.com/gameserver-exporter/gameserver_exporter/protocols/prototest"
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
			prototest.CheckReason(t, err)
			return
		}
		prototest.CheckUTF8(t, g.Result(true))
		if len(g.NewGRFs) > 255 {
			t.Fatalf("%d newgrfs", len(g.NewGRFs))
		}
	})
}
