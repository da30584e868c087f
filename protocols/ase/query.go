package ase

import (
	"bytes"
	"context"
	"errors"
	"fmt"

	"github.com/gameserver-exporter/gameserver_exporter/protocols"
	"github.com/gameserver-exporter/gameserver_exporter/protocols/wire"
)

// request is the portable full-status query: exactly one byte, since MTA dispatches
// on the first byte and other servers' handling of extra bytes is untested.
var request = []byte{'s'}

// maxStray bounds the datagrams read while waiting for the rest of a split reply.
const maxStray = 32

type querier struct {
	s    protocols.Settings
	text func([]byte) string // the module's code page (wire.UTF8 by default)
}

// query sends "s" to the query port (game port + 123) and decodes the
// EYE1 reply, reassembling it first if the server split it.
func (q *querier) query(ctx context.Context, conn *wire.UDPConn, tr *wire.Trace) (*protocols.Result, error) {
	p := tr.Begin("info")
	body, lost, err := receive(ctx, conn, tr)
	if err != nil {
		tr.End(p, err)
		return nil, err
	}
	st, err := decode(body, q.text)
	if err != nil && lost != nil {
		// The header itself was cut by the missing fragment: say so, not "truncated".
		err = fmt.Errorf("%w (%v)", lost, err)
	}
	tr.End(p, err)
	if err != nil {
		return nil, err
	}
	if lost != nil {
		// Whatever follows the gap is gone: rules may be whole, the player list is not.
		if st.RulesErr != nil {
			st.RulesErr = lost
		}
		st.PlayersErr = lost
	}
	return st.Result(q.s.Players, q.s.Rules), nil
}

// isReply accepts what can answer "s": EYE1 or a fragment EYE2..EYE9.
func isReply(b []byte) bool {
	return len(b) >= len(magic) && bytes.Equal(b[:3], magic[:3]) && b[3] >= '1' && b[3] <= '0'+maxFragments
}

// receive returns the reply body. For a split reply whose fragments did not all
// arrive by the deadline it returns what precedes the first gap and lost, an
// ErrTimeout naming the missing fragments; without fragment 1 that is an error.
func receive(ctx context.Context, conn *wire.UDPConn, tr *wire.Trace) (body []byte, lost, err error) {
	b, err := conn.Request(ctx, request, isReply)
	if err != nil {
		return nil, nil, err
	}
	// Request may have narrowed the read deadline to one retry slot; the remaining
	// fragments get the whole probe deadline.
	dl, _ := ctx.Deadline()
	conn.SetReadDeadline(dl)

	var a assembler
	for stray := 0; ; {
		f, single, perr := parseFragment(b)
		switch {
		case perr == nil && single:
			return b, nil, nil
		case perr != nil:
			tr.Ignore(perr.Error())
			stray++
		default:
			if why := a.add(f); why != "" {
				tr.Ignore(why)
				stray++
			}
		}
		if a.complete() {
			tr.Logf("reassembled %d fragments", a.total)
			return a.body(), nil, nil
		}
		if stray > maxStray {
			return nil, nil, fmt.Errorf("%w: %d datagrams that do not continue the split reply", wire.ErrMalformed, stray)
		}
		if b, err = conn.Recv(); err != nil {
			if !errors.Is(err, wire.ErrTimeout) {
				return nil, nil, err
			}
			lost = fmt.Errorf("%w: reply fragment(s) %v never arrived", wire.ErrTimeout, a.missing())
			if a.frags[0] == nil {
				return nil, nil, lost
			}
			tr.Logf("decoding the fragments before the gap: %v", lost)
			return a.body(), lost, nil
		}
	}
}
