package prototest

import (
	"fmt"
	"strings"
	"testing"

	"github.com/gameserver-exporter/gameserver_exporter/protocols"
)

// FuzzPlayers is FuzzDecoder for a decoder of a player list alone (a phase of
// its own): a refusal names its reason, the names are UTF-8.
func FuzzPlayers(f *testing.F, seeds [][]byte, decode func([]byte) ([]protocols.Player, error)) {
	FuzzDecoder(f, seeds, func(b []byte) (*protocols.Result, error) {
		list, err := decode(b)
		if err != nil {
			return nil, err
		}
		return &protocols.Result{PlayerList: list}, nil
	})
}

// PlayersText is what such a decoder gave, in one line a test compares whole:
// the error's text, or each player as [name score ping team], name and team
// quoted, an unreported count as "?"; "[]" for an empty list.
func PlayersText(list []protocols.Player, err error) string {
	if err != nil {
		return err.Error()
	}
	out := make([]string, len(list))
	for i, p := range list {
		out[i] = fmt.Sprintf("[%q %s %s %q]", p.Name, CountText(p.Score), CountText(p.Ping), p.Team)
	}
	if len(out) == 0 {
		return "[]"
	}
	return strings.Join(out, " ")
}
