package eco

import (
	"testing"

	"github.com/gameserver-exporter/gameserver_exporter/protocols"
	"github.com/gameserver-exporter/gameserver_exporter/protocols/prototest"
)

// decoded is a reply's Result with players, for the fuzz and benchmark.
var decoded = prototest.Decoded(decode, func(s *info) *protocols.Result { return s.result(true) })

func FuzzDecode(f *testing.F) { prototest.FuzzReplies(f, "*.json", maxPlayers, decoded) }
