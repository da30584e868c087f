package mafia2mp

import (
	"context"

	"github.com/gameserver-exporter/gameserver_exporter/protocols"
	"github.com/gameserver-exporter/gameserver_exporter/protocols/wire"
)

type querier struct {
	s    protocols.Settings
	tag  string              // tagM2MP or tagOnline
	text func([]byte) string // the server's code page
}

// Query sends the mod's tag and decodes the reply that repeats it.
func (q *querier) Query(ctx context.Context, t protocols.Target, tr *wire.Trace) (*protocols.Result, error) {
	conn, err := protocols.DialUDP(ctx, t, tr, q.s.Retries)
	if err != nil {
		return nil, err
	}
	defer conn.Close()

	p := tr.Begin("info")
	r, err := wire.Exchange(ctx, conn, []byte(q.tag), func(b []byte) (*reply, error, error) {
		if skip := answers(b, q.tag); skip != nil {
			return nil, skip, nil
		}
		r, err := decode(b, q.tag, q.text)
		return r, nil, err
	})
	tr.End(p, err)
	if err != nil {
		return nil, err
	}
	return r.Result(q.s.Players), nil
}
