package quake3

import (
	"testing"
	"unicode/utf8"

	"github.com/gameserver-exporter/gameserver_exporter/protocols"
	"github.com/gameserver-exporter/gameserver_exporter/protocols/internal/idtech/idtechtest"
)

// FuzzDecode checks that no datagram panics the decoder or breaks its caps and
// that everything it returns is valid UTF-8. Seeds: testdata/, and the real
// captures in ../shared when present.
func FuzzDecode(f *testing.F) {
	idtechtest.Fuzz(f, decode, idtechtest.Kept, func(t *testing.T, r *reply) *protocols.Result {
		checkFuzzReply(t, r)
		return r.result(true, true)
	}, "fixtures/quake3/*.bin", "realworld/captures/*_q3-*.resp.bin")
}

// checkFuzzReply checks that the decoded pairs and lines are valid UTF-8 and
// within their own bounds.
func checkFuzzReply(t *testing.T, r *reply) {
	t.Helper()
	for _, kv := range r.Pairs {
		if !utf8.ValidString(kv.Key) || !utf8.ValidString(kv.Value) {
			t.Fatalf("invalid UTF-8 info %q", kv)
		}
	}
	for _, p := range r.Players {
		if p.NumCount > 3 || !utf8.ValidString(p.Name) || !utf8.ValidString(p.Clean) || len(p.Clean) > len(p.Name) {
			t.Fatalf("bad player %+v", p)
		}
	}
}
