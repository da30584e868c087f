package tribes1

import (
	"testing"

	"github.com/gameserver-exporter/gameserver_exporter/protocols"
	"github.com/gameserver-exporter/gameserver_exporter/protocols/prototest"
)

// No real Tribes or Starsiege capture is committed: the seeds are the own vectors.
func FuzzDecode(f *testing.F) { prototest.FuzzVecs(f, maxPlayers, decoded) }

// decoded is decode and the Result it leads to, players and rules on.
var decoded = prototest.Decoded(decode, func(r *reply) *protocols.Result { return r.Result(true, true) })
