package eldewrito

import (
	"testing"

	"github.com/gameserver-exporter/gameserver_exporter/protocols"
	"github.com/gameserver-exporter/gameserver_exporter/protocols/prototest"
)

// decoded is an info reply's Result with players and rules, unauthenticated,
// for the fuzz and benchmark.
func decoded(b []byte) (*protocols.Result, error) {
	in, err := decode(b)
	if err != nil {
		return nil, err
	}
	return in.result(true, true, false), nil
}

func FuzzDecode(f *testing.F) { prototest.FuzzReplies(f, "*.json", maxPlayers, decoded) }
