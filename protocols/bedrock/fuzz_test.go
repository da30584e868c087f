package bedrock

import (
	"errors"
	"strings"
	"testing"
	"unicode/utf8"

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
		for _, s := range []string{res.Name, res.Map, res.Version} {
			if !utf8.ValidString(s) {
				t.Fatalf("invalid UTF-8 %q", s)
			}
		}
		if strings.ContainsRune(res.Name, '§') || strings.ContainsRune(res.Map, '§') {
			t.Fatalf("name %q or map %q keeps a § code", res.Name, res.Map)
		}
		for _, kv := range res.InfoKV() {
			if !utf8.ValidString(kv.Key) || !utf8.ValidString(kv.Value) {
				t.Fatalf("invalid UTF-8 info %q", kv)
			}
		}
		if res.Players.Known && res.Players.Value < 0 || res.MaxPlayers.Known && res.MaxPlayers.Value < 0 {
			t.Fatalf("negative count %+v %+v", res.Players, res.MaxPlayers)
		}
	})
}
