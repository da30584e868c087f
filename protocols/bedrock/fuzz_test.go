package bedrock

import (
	"errors"
	"strings"
	"testing"

	"github.com/gameserver-exporter/gameserver_exporter/protocols"
	"github.com/gameserver-exporter/gameserver_exporter/protocols/prototest"
	"github.com/gameserver-exporter/gameserver_exporter/protocols/wire"
)

// FuzzDecode checks that no datagram panics answers or decode, that decode keeps
// its caps and fails with one sentinel, and that everything it returns is valid
// UTF-8. Seeds: testdata/.
func FuzzDecode(f *testing.F) {
	prototest.SeedHex(f)
	f.Fuzz(func(t *testing.T, b []byte) {
		_ = answers(b, vecTime)
		p, err := decode(b)
		if err != nil {
			if p != nil {
				t.Fatal("pong and error")
			}
			n := 0
			for _, s := range []error{wire.ErrMalformed, wire.ErrTruncated, wire.ErrTooLarge} {
				if errors.Is(err, s) {
					n++
				}
			}
			if n != 1 {
				t.Fatalf("error %v wraps %d sentinels", err, n)
			}
			return
		}
		if len(p.fields) < 2 || len(p.fields) > maxFields || len(b) < pongHeader {
			t.Fatalf("%d fields from %d bytes", len(p.fields), len(b))
		}
		res := p.result()
		if strings.ContainsRune(res.Name, '§') || strings.ContainsRune(res.Map, '§') || res.Players.Value < 0 || res.MaxPlayers.Value < 0 {
			t.Fatalf("name %q or map %q keeps a § code, or a count is negative: %+v", res.Name, res.Map, res)
		}
		prototest.CheckUTF8(t, &protocols.Result{Name: res.Name, Map: res.Map, Version: res.Version, Info: res.InfoKV()})
	})
}
