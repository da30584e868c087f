package cs2d

import (
	"testing"

	"github.com/gameserver-exporter/gameserver_exporter/protocols"
	"github.com/gameserver-exporter/gameserver_exporter/protocols/prototest"
)

// No real CS2D capture is committed: the seeds are the own vectors.
func FuzzDecode(f *testing.F) { prototest.FuzzVecs(f, 255, decoded) }

// decoded is decode and the Result it leads to, players and rules on.
var decoded = prototest.Decoded(decode, func(r *reply) *protocols.Result { return r.Result(true, true) })
