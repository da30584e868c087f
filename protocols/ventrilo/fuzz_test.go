package ventrilo

import (
	"os"
	"strings"
	"testing"

	"github.com/gameserver-exporter/gameserver_exporter/protocols/prototest"
	"github.com/gameserver-exporter/gameserver_exporter/protocols/wire"
)

// FuzzDecode: no datagram or status text panics the decoders, every error names
// one reason, and what decodes has UTF-8 strings. Each input is tried as a
// datagram (decrypted as a reply to id 0x0102) and as a status text.
func FuzzDecode(f *testing.F) {
	entries, _ := os.ReadDir("testdata")
	for _, e := range entries {
		switch {
		case strings.HasSuffix(e.Name(), ".txt"):
			f.Add(prototest.File(f, e.Name()))
		case strings.HasSuffix(e.Name(), ".hex"):
			f.Add(prototest.HexFile(f, e.Name()))
		}
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		a := &assembly{id: 0x0102}
		if _, err := a.add(b); err != nil && !strings.Contains(err.Error(), errSkip.Error()) {
			prototest.CheckReason(t, err)
		}
		res, err := result(b, true, wire.UTF8)
		if err != nil {
			prototest.CheckReason(t, err)
			return
		}
		prototest.CheckUTF8(t, res)
		for _, p := range res.PlayerList {
			if p.Ping.Value < 0 {
				t.Fatalf("%+v", p)
			}
		}
	})
}
