package tribes1

import (
	"context"
	"math/rand/v2"

	"github.com/gameserver-exporter/gameserver_exporter/protocols"
	"github.com/gameserver-exporter/gameserver_exporter/protocols/wire"
)

type querier struct {
	s   protocols.Settings
	req byte
}

// Query sends the one request with fresh echo bytes and decodes the reply that
// echoes them.
func (q *querier) Query(ctx context.Context, t protocols.Target, tr *wire.Trace) (*protocols.Result, error) {
	conn, err := wire.DialUDP(ctx, t.Addr, tr)
	if err != nil {
		return nil, err
	}
	defer conn.Close()
	conn.Retries = q.s.Retries

	echo := uint16(rand.N(0x10000))
	p := tr.Begin("info")
	r, err := wire.Exchange(ctx, conn, newRequest(q.req, echo), func(b []byte) (*reply, error, error) {
		if skip := answers(b, q.req, echo); skip != nil {
			return nil, skip, nil
		}
		r, err := decode(b)
		return r, nil, err
	})
	tr.End(p, err)
	if err != nil {
		return nil, err
	}
	return r.Result(q.s.Players, q.s.Rules), nil
}
