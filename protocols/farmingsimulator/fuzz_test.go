package farmingsimulator

import (
	"fmt"
	"testing"

	"github.com/gameserver-exporter/gameserver_exporter/protocols"
	"github.com/gameserver-exporter/gameserver_exporter/protocols/prototest"
)

// decoded is a stats feed's Result with players, for the fuzz and benchmark.
func decoded(b []byte) (*protocols.Result, error) {
	s, err := decode(b)
	if err != nil {
		return nil, err
	}
	return s.result(true), nil
}

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
