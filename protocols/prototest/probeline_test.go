package prototest

import (
	"errors"
	"fmt"
	"testing"

	"github.com/gameserver-exporter/gameserver_exporter/protocols"
	"github.com/gameserver-exporter/gameserver_exporter/protocols/wire"
)

func TestProbeLine(t *testing.T) {
	tr := wire.NewTrace()
	p := tr.Begin("info")
	tr.End(p, nil)
	p = tr.Begin("players")
	tr.End(p, fmt.Errorf("%w: cut", wire.ErrTruncated))
	tr.Log("a note")
	many := make([]protocols.Player, 9)
	for _, c := range []struct {
		res  *protocols.Result
		tr   *wire.Trace
		err  error
		want string
	}{
		{&protocols.Result{Name: "N", Map: "m", Game: "g", Version: "1", Players: protocols.Known(2), Password: protocols.FlagTrue,
			PlayerList: []protocols.Player{{Name: "a"}, {Name: "b"}}, Rules: []protocols.KV{{Key: "k"}},
			PhaseErrors: []protocols.PhaseError{{Phase: "players", Err: wire.ErrTruncated}}}, tr, nil,
			`"N" "m" "g" "1" 2/? bots ? pw 2 [a b] rules 1 info 0 partial [players:truncated] | info:ok,players:truncated skipped 0 log 1`},
		{&protocols.Result{PlayerList: many}, nil, nil, `"" "" "" "" ?/? bots ? pw 0 [9 players] rules - info 0 partial []`},
		{nil, nil, fmt.Errorf("%w: late", wire.ErrTimeout), `error timeout`},
		{&protocols.Result{}, nil, errors.Join(wire.ErrTruncated), `error truncated with a result`},
		{nil, nil, nil, `no result`},
	} {
		if got := ProbeLine(c.res, c.tr, c.err); got != c.want {
			t.Errorf("got  %s\nwant %s", got, c.want)
		}
	}
	// A want that stops before the trace, or before the skipped datagrams, is
	// compared with as much of the line.
	res := &protocols.Result{Name: "N"}
	CheckProbe(t, res, tr, nil, `"N" "" "" "" ?/? bots ? pw 0 - rules - info 0 partial []`)
	CheckProbe(t, res, tr, nil, `"N" "" "" "" ?/? bots ? pw 0 - rules - info 0 partial [] | info:ok,players:truncated`)
	wrong := &errorsOnly{TB: t}
	CheckProbe(wrong, res, tr, nil, `"M"`)
	if !wrong.failed {
		t.Error("a wrong line passed")
	}
}

// errorsOnly notes an Errorf instead of failing the test.
type errorsOnly struct {
	testing.TB
	failed bool
}

func (e *errorsOnly) Helper()               {}
func (e *errorsOnly) Errorf(string, ...any) { e.failed = true }

func TestQstatASCII(t *testing.T) {
	if got := QstatASCII("Café «x»"); got != "Caf x" {
		t.Errorf("QstatASCII = %q", got)
	}
	if got := (QstatPlayer{RawTeam: []byte(`"red"`)}).Team() + (QstatPlayer{RawTeam: []byte(`2`)}).Team(); got != "red2" {
		t.Errorf("teams %q", got)
	}
}
