package savage2

import (
	"testing"

	"github.com/gameserver-exporter/gameserver_exporter/protocols"
	"github.com/gameserver-exporter/gameserver_exporter/protocols/prototest"
)

// No real Savage 2 capture is committed: the seeds are the own vectors.
func FuzzDecode(f *testing.F) { prototest.FuzzVecs(f, 0, decoded) }

// decoded is decode and the Result it leads to, rules on.
var decoded = prototest.Decoded(decode, func(r *reply) *protocols.Result { return r.Result(true) })
