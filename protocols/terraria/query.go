package terraria

import (
	"context"
	"net/http"

	"github.com/gameserver-exporter/gameserver_exporter/protocols"
	"github.com/gameserver-exporter/gameserver_exporter/protocols/wire"
)

type querier struct {
	players, rules bool
	path           string
}

// maxBody caps the reply: 255 players and the rules fit in a few tens of KiB.
const maxBody = 256 << 10

// Query sends the one status request and decodes its reply.
func (q *querier) Query(ctx context.Context, t protocols.Target, tr *wire.Trace) (*protocols.Result, error) {
	addr := t.Addr
	p := tr.Begin("info")
	resp, err := wire.DoHTTP(ctx, addr, wire.HTTPRequest{
		Path:    q.path,
		Header:  http.Header{"Accept": {"application/json"}},
		MaxBody: maxBody,
	}, tr)
	var st *status
	if err == nil {
		st, err = decode(resp)
	}
	tr.End(p, err)
	if err != nil {
		return nil, err
	}
	return st.result(q.players, q.rules), nil
}
