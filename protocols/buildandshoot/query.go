package buildandshoot

import (
	"context"
	"net/http"

	"github.com/gameserver-exporter/gameserver_exporter/protocols"
	"github.com/gameserver-exporter/gameserver_exporter/protocols/wire"
)

type querier struct {
	s protocols.Settings
}

// maxBody caps the reply: 32 players and the script list fit in a few KiB.
const maxBody = 256 << 10

// Query reads /json once.
func (q *querier) Query(ctx context.Context, t protocols.Target, tr *wire.Trace) (*protocols.Result, error) {
	p := tr.Begin("info")
	resp, err := wire.DoHTTP(ctx, t.Addr, wire.HTTPRequest{Path: "/json", Header: http.Header{"Accept": {"application/json"}}, MaxBody: maxBody}, tr)
	var s *status
	if err == nil {
		var body []byte
		if body, err = wire.JSONBody(resp); err == nil {
			s, err = decode(body)
		}
	}
	tr.End(p, err)
	if err != nil {
		return nil, err
	}
	return s.result(q.s.Players), nil
}
