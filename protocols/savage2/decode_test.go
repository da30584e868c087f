package savage2

import (
	"testing"

	"github.com/gameserver-exporter/gameserver_exporter/protocols"
	"github.com/gameserver-exporter/gameserver_exporter/protocols/prototest"
	"github.com/gameserver-exporter/gameserver_exporter/protocols/wire"
)

// TestDecodeVectors decodes each own vector, testdata/NAME.vec (escaped hex
// built from the jxqf notes' layout, prototest.ParseVec), as its
// NAME.expected.json says: the error's reason, or the Result's ProbeLine, info
// values it holds and the reason the optional tail failed with. The players
// byte counts clients; Savage 2 has no bots to tell apart (Bots unknown) and
// no player list.
func TestDecodeVectors(t *testing.T) {
	prototest.VecVectors(t, func(t *testing.T, b []byte, w struct {
		prototest.HexVector
		Line, Tail string
		Info       map[string]string
	}) {
		r, err := decode(b)
		if w.Refused(t, b, err) {
			return
		}
		res := r.Result(true)
		prototest.CheckProbe(t, res, nil, nil, w.Line)
		prototest.CheckInfoHas(t, res, w.Info)
		if wire.Reason(r.TailErr) != w.Tail {
			t.Errorf("tail error %v, want %s", r.TailErr, w.Tail)
		}
		if (res.Password != protocols.FlagUnknown) != r.HasPassword {
			t.Errorf("password %d, the layout sends one: %v", res.Password, r.HasPassword)
		}
		if res := r.Result(false); res.Rules != nil || res.PlayerList != nil {
			t.Error("rules not asked for")
		}
	})
}

// No real Savage 2 capture is committed: the seeds are the own vectors.
func FuzzDecode(f *testing.F) { prototest.FuzzVecs(f, 0, decoded) }

// decoded is decode and the Result it leads to, rules on.
var decoded = prototest.Decoded(decode, func(r *reply) *protocols.Result { return r.Result(true) })

func BenchmarkDecode(b *testing.B) {
	prototest.DecodeBench(b, prototest.VecFile(b, "full"), decoded.Err)
}
