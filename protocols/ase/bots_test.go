package ase

import (
	"testing"

	"github.com/gameserver-exporter/gameserver_exporter/protocols/prototest"
)

// TestBotsMeaning: ASE counts players and flags no bots.
func TestBotsMeaning(t *testing.T) {
	s, err := decode(prototest.VecFile(t, "basic"))
	if err != nil {
		t.Fatal(err)
	}
	prototest.CheckBots(t, s.Result(true, false), 3, prototest.Unknown, true)
}
