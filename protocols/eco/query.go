package eco

import (
	"context"
	"errors"
	"net/http"
	"net/netip"

	"github.com/gameserver-exporter/gameserver_exporter/protocols"
	"github.com/gameserver-exporter/gameserver_exporter/protocols/wire"
)

type querier struct {
	s protocols.Settings
}

// maxBody caps the reply: the info object with a few hundred names is a few KiB.
const maxBody = 512 << 10

// Query reads /info; a 404 there (servers without it) reads /frontpage instead.
//
// Not a protocols.HTTPExchange: a second path (/frontpage) when /info is not found.
func (q *querier) Query(ctx context.Context, t protocols.Target, tr *wire.Trace) (*protocols.Result, error) {
	p := tr.Begin("info")
	in, err := get(ctx, t.Addr, tr, "/info")
	if errors.Is(err, errNotFound) {
		tr.Log("/info not found, reading /frontpage")
		in, err = get(ctx, t.Addr, tr, "/frontpage")
	}
	tr.End(p, err)
	if err != nil {
		return nil, err
	}
	return in.result(q.s.Players), nil
}

var errNotFound = wire.StatusError(&wire.HTTPResponse{Status: http.StatusNotFound})

func get(ctx context.Context, addr netip.AddrPort, tr *wire.Trace, path string) (*info, error) {
	resp, err := wire.DoHTTP(ctx, addr, protocols.GetJSON(path, maxBody), tr)
	if err != nil {
		return nil, err
	}
	if resp.Status == http.StatusNotFound && path == "/info" {
		return nil, errNotFound
	}
	body, err := wire.JSONBody(resp)
	if err != nil {
		return nil, err
	}
	return decode(body)
}
