package palworld

import (
	"context"
	"fmt"
	"net/http"
	"net/netip"

	"github.com/gameserver-exporter/gameserver_exporter/protocols"
	"github.com/gameserver-exporter/gameserver_exporter/protocols/wire"
)

type querier struct {
	auth    protocols.Secret // the Authorization header value; "" sends none
	players bool
}

// String and GoString keep the credentials out of any print of the querier: fmt
// cannot call Secret's String on an unexported field, so it would print it raw.
func (q *querier) String() string   { return "palworld querier" }
func (q *querier) GoString() string { return "palworld querier" }

// maxBody caps each reply: 32 players with their fields fit in a few KiB.
const maxBody = 256 << 10

// get fetches one endpoint and decodes its JSON into v.
func (q *querier) get(ctx context.Context, addr netip.AddrPort, tr *wire.Trace, path string, redact func([]byte) []byte, v any) error {
	hdr := http.Header{"Accept": {"application/json"}}
	if q.auth != "" {
		hdr.Set("Authorization", q.auth.Reveal())
	}
	resp, err := wire.DoHTTP(ctx, addr, wire.HTTPRequest{Path: path, Header: hdr, MaxBody: maxBody, TraceBody: redact}, tr)
	if err != nil {
		return err
	}
	err = wire.DecodeJSON(resp, v)
	if q.auth == "" && (resp.Status == http.StatusUnauthorized || resp.Status == http.StatusForbidden) {
		err = fmt.Errorf("%w: the module has no palworld block: give it palworld: {password_file: ...} with the server's AdminPassword", err)
	}
	return err
}

// Query asks for the server info, then its metrics, then (when the module asks)
// its players. The info request is the one that must succeed: it proves the
// server and the password; a failed metrics or players request after it is a
// phase error of a server that is up.
//
// Not a protocols.HTTPExchange: the info, the metrics and the players, three requests.
func (q *querier) Query(ctx context.Context, t protocols.Target, tr *wire.Trace) (*protocols.Result, error) {
	addr := t.Addr
	var in info
	p := tr.Begin("info")
	err := q.get(ctx, addr, tr, "/v1/api/info", nil, &in)
	if err == nil {
		err = in.check()
	}
	tr.End(p, err)
	if err != nil {
		return nil, err
	}
	res := in.result()

	if m, ok := protocols.Phase(&res.PhaseErrors, tr, "metrics", func() (m metrics, err error) {
		if err = q.get(ctx, addr, tr, "/v1/api/metrics", nil, &m); err == nil {
			err = m.check()
		}
		return m, err
	}); ok {
		m.fill(res)
	}

	if !q.players {
		return res, nil
	}
	if pl, ok := protocols.Phase(&res.PhaseErrors, tr, "players", func() (pl playerList, err error) {
		err = q.get(ctx, addr, tr, "/v1/api/players", redactPlayers, &pl)
		return pl, err
	}); ok {
		pl.fill(res)
	}
	return res, nil
}
