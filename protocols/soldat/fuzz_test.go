package soldat

import (
	"testing"
	"unicode/utf8"

	"github.com/gameserver-exporter/gameserver_exporter/protocols/wire"
)

// FuzzDecode: no record panics the decoder, every error names one reason, and a
// result is UTF-8 with counts in range. Inputs are padded or cut to the record's
// size, so the fuzzer explores the fields rather than the length check.
func FuzzDecode(f *testing.F) {
	for _, name := range []string{"refreshx_ctf", "refreshx_empty"} {
		f.Add(vec(f, name))
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		rec := make([]byte, recordLen)
		copy(rec, header)
		copy(rec[len(header):], b)
		rf, err := decodeRefresh(rec, wire.UTF8)
		if err != nil {
			if r := wire.Reason(err); r == "" || r == "other" {
				t.Fatalf("error without a reason: %v", err)
			}
			return
		}
		res := rf.result(true)
		if res.Players.Value+res.Bots.Value > slots || !utf8.ValidString(res.Map+res.Game) {
			t.Fatalf("%+v", res)
		}
		for _, p := range res.PlayerList {
			if !utf8.ValidString(p.Name) {
				t.Fatalf("%q", p.Name)
			}
		}
	})
}
