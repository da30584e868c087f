package rfactor

import (
	"context"

	"github.com/gameserver-exporter/gameserver_exporter/protocols"
	"github.com/gameserver-exporter/gameserver_exporter/protocols/wire"
)

type querier struct {
	s protocols.Settings
}

// Query sends rF_S and decodes the answer. The answer echoes nothing; the
// connected socket lets only the server's address through, and a datagram that
// is not an rF_S reply (answers) is skipped as a stray.
func (q *querier) Query(ctx context.Context, t protocols.Target, tr *wire.Trace) (*protocols.Result, error) {
	conn, err := wire.DialUDP(ctx, t.Addr, tr)
	if err != nil {
		return nil, err
	}
	defer conn.Close()
	conn.Retries = q.s.Retries

	p := tr.Begin("info")
	r, err := wire.Exchange(ctx, conn, request, func(b []byte) (*reply, error, error) {
		if skip := answers(b); skip != nil {
			return nil, skip, nil
		}
		r, err := decode(b)
		return r, nil, err
	})
	tr.End(p, err)
	if err != nil {
		return nil, err
	}
	return r.Result(), nil
}
