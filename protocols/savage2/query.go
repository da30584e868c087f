package savage2

import (
	"context"
	"fmt"

	"github.com/gameserver-exporter/gameserver_exporter/protocols"
	"github.com/gameserver-exporter/gameserver_exporter/protocols/wire"
)

type querier struct {
	s protocols.Settings
}

// Query sends the one-byte request and decodes the answer. The answer echoes
// nothing of it; the connected socket lets only the server's address through, and
// a datagram too short for a reply, or one with neither a name nor slots (zeros),
// is skipped as a stray.
func (q *querier) Query(ctx context.Context, t protocols.Target, tr *wire.Trace) (*protocols.Result, error) {
	conn, err := wire.DialUDP(ctx, t.Addr, tr)
	if err != nil {
		return nil, err
	}
	defer conn.Close()
	conn.Retries = q.s.Retries

	p := tr.Begin("info")
	r, err := wire.Exchange(ctx, conn, request, func(b []byte) (*reply, error, error) {
		if len(b) <= headerLen {
			return nil, fmt.Errorf("%w: %d-byte datagram, a reply has a %d-byte header and more", wire.ErrTruncated, len(b), headerLen), nil
		}
		r, err := decode(b)
		if err == nil && r.Name == "" && r.Max == 0 {
			return nil, fmt.Errorf("%w: no server name and no slots: not a server's reply", wire.ErrMalformed), nil
		}
		return r, nil, err
	})
	tr.End(p, err)
	if err != nil {
		return nil, err
	}
	return r.Result(q.s.Rules), nil
}
