package farmingsimulator

import (
	"context"
	"fmt"
	"net/http"
	"net/url"

	"github.com/gameserver-exporter/gameserver_exporter/protocols"
	"github.com/gameserver-exporter/gameserver_exporter/protocols/wire"
)

type querier struct {
	s    protocols.Settings
	code protocols.Secret
}

// String and GoString keep the code out of any print of the querier.
func (q *querier) String() string   { return "farmingsimulator querier" }
func (q *querier) GoString() string { return "farmingsimulator querier" }

// maxBody caps the feed: a server with a few hundred mods lists them in ~100 KiB.
const maxBody = 1 << 20

// Query reads the stats feed with the code (masked in the trace). A module
// without a code, such as the built-in one, still asks (a closed or silent port
// says so as for any module); any answer then fails saying the code is missing.
func (q *querier) Query(ctx context.Context, t protocols.Target, tr *wire.Trace) (*protocols.Result, error) {
	p := tr.Begin("info")
	path := "/feed/dedicated-server-stats.xml"
	if q.code != "" {
		path += "?code=" + url.QueryEscape(q.code.Reveal())
	}
	resp, err := wire.DoHTTP(ctx, t.Addr, wire.HTTPRequest{Path: path, SecretQuery: true, MaxBody: maxBody}, tr)
	var s *server
	if err == nil {
		switch {
		case resp.Status < 200 || resp.Status > 299:
			err = wire.StatusError(resp)
		default:
			s, err = decode(resp.Body)
		}
		switch {
		case err != nil && q.code == "":
			err = fmt.Errorf("%w: the module has no code: give it farmingsimulator: {code_file: ...} with the stats feed code the web interface shows (the server answered: %v)", wire.ErrServer, err)
		case resp.Status == http.StatusUnauthorized || resp.Status == http.StatusForbidden:
			err = fmt.Errorf("%w (the stats feed code is wrong)", err)
		}
	}
	tr.End(p, err)
	if err != nil {
		return nil, err
	}
	return s.result(q.s.Players), nil
}
