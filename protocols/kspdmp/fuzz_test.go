package kspdmp

import (
	"testing"

	"github.com/gameserver-exporter/gameserver_exporter/protocols"
	"github.com/gameserver-exporter/gameserver_exporter/protocols/prototest"
)

// decoded is a status reply's Result with players, for the fuzz and benchmark.
func decoded(b []byte) (*protocols.Result, error) {
	s, err := decode(b)
	if err != nil {
		return nil, err
	}
	return s.result(true), nil
}

func FuzzDecode(f *testing.F) { prototest.FuzzReplies(f, "*.json", maxPlayers, decoded) }
