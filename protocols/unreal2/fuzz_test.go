package unreal2

import (
	"testing"
	"unicode/utf8"

	"github.com/gameserver-exporter/gameserver_exporter/protocols/prototest"
)

// FuzzDecode runs every decoder on one datagram, as the querier would for each
// reply type, seeded with the vectors in testdata/ and the fakes' replies.
func FuzzDecode(f *testing.F) {
	for _, b := range prototest.AllVecs(f) {
		f.Add(b)
	}
	f.Add(infoReply("Seed", "DM-Seed", 3, 8))
	f.Add(kfInfo("Seed KF", 2, 6))
	for _, b := range playerReplies(5, 5) {
		f.Add(b)
	}
	for _, b := range rulesReplies(6, stockRules...) {
		f.Add(b)
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		valid := func(what, s string) {
			if !utf8.ValidString(s) {
				t.Fatalf("%s: invalid UTF-8 %q", what, s)
			}
		}
		if v, body, err := splitReply(b, typeInfo); err == nil {
			if in, err := decodeInfo(v, body); err == nil {
				st := &status{in: in}
				for _, kv := range st.infoKV() {
					valid(kv.Key, kv.Value)
				}
				if in.trailing < 0 || in.trailing > len(body) {
					t.Fatalf("trailing %d of %d", in.trailing, len(body))
				}
			}
		}
		if _, body, err := splitReply(b, typeRules); err == nil {
			kv, _ := decodeRules(nil, body)
			if len(kv) > maxRulePairs {
				t.Fatalf("%d rules past the cap", len(kv))
			}
			for _, p := range kv {
				valid("rule key", p.Key)
				valid("rule value", p.Value)
			}
		}
		if v, body, err := splitReply(b, typePlayers); err == nil {
			for _, version := range []uint32{v, versionXMP} {
				ps, _ := decodePlayers(nil, version, body)
				if len(ps) > maxPlayerEntries {
					t.Fatalf("%d players past the cap", len(ps))
				}
				for _, p := range ps {
					valid("player name", p.name)
					valid("player team", p.team)
				}
			}
		}
	})
}
