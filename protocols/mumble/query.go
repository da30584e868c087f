package mumble

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"

	"github.com/gameserver-exporter/gameserver_exporter/protocols"
	"github.com/gameserver-exporter/gameserver_exporter/protocols/wire"
)

type querier struct {
	retries int
	rules   bool
}

// Query sends the ping with a random identifier and decodes the reply echoing it.
// Datagrams echoing another identifier are skipped; if only such datagrams came
// before the deadline the error is ErrMismatch, not ErrTimeout.
func (q *querier) Query(ctx context.Context, t protocols.Target, tr *wire.Trace) (*protocols.Result, error) {
	addr := t.Addr
	conn, err := wire.DialUDP(ctx, addr, tr)
	if err != nil {
		return nil, err
	}
	defer conn.Close()
	conn.Retries = q.retries

	ident := rand.Uint64()
	p := tr.Begin("info")
	var skipped error
	reply, err := conn.Request(ctx, request(ident), func(b []byte) bool {
		if e := answers(b, ident); e != nil {
			skipped = e
			return false
		}
		return true
	})
	if err != nil {
		if skipped != nil && (errors.Is(err, wire.ErrTimeout) || errors.Is(err, wire.ErrMalformed)) {
			err = fmt.Errorf("no ping reply, last datagram skipped: %w", skipped)
		}
		tr.End(p, err)
		return nil, err
	}
	st, err := decode(reply, ident)
	tr.End(p, err)
	if err != nil {
		return nil, err
	}
	if st.Trailing > 0 {
		tr.Logf("ignored %d bytes after the 24-byte reply", st.Trailing)
	}
	return st.Result(q.rules), nil
}
