package soldat

import (
	"testing"

	"github.com/gameserver-exporter/gameserver_exporter/protocols/prototest"
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
			prototest.CheckReason(t, err)
			return
		}
		res := rf.result(true)
		if res.Players.Value+res.Bots.Value > slots {
			t.Fatalf("%+v", res)
		}
		prototest.CheckUTF8(t, res)
	})
}
