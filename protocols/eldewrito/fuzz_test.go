package eldewrito

import (
	"testing"

	"github.com/gameserver-exporter/gameserver_exporter/protocols"
	"github.com/gameserver-exporter/gameserver_exporter/protocols/prototest"
)

// decoded is an info reply's Result with players and rules, unauthenticated,
// for the fuzz and benchmark.
var decoded = prototest.Decoded(decode, func(s *info) *protocols.Result { return s.result(true, true, false) })

func FuzzDecode(f *testing.F) { prototest.FuzzReplies(f, "*.json", maxPlayers, decoded) }
