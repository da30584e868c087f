package farmingsimulator

import (
	"fmt"
	"testing"

	"github.com/gameserver-exporter/gameserver_exporter/protocols"
	"github.com/gameserver-exporter/gameserver_exporter/protocols/prototest"
)

// decoded is a stats feed's Result with players, for the fuzz and benchmark.
var decoded = prototest.Decoded(decode, func(s *server) *protocols.Result { return s.result(true) })

// The shared checks, and the mods under their cap (past it is an error that is
// not ErrMalformed, which fails the fuzz).
func FuzzDecode(f *testing.F) {
	prototest.FuzzReplies(f, "*.xml", maxPlayers, func(b []byte) (*protocols.Result, error) {
		res, err := decoded(b)
		if err == nil && len(res.Mods) > maxMods {
			return nil, fmt.Errorf("%d mods past the cap", len(res.Mods))
		}
		return res, err
	})
}
