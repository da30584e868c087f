package eldewrito

import (
	"context"
	"encoding/base64"
	"net/http"

	"github.com/gameserver-exporter/gameserver_exporter/protocols"
	"github.com/gameserver-exporter/gameserver_exporter/protocols/wire"
)

type querier struct {
	s        protocols.Settings
	password protocols.Secret
}

// String and GoString keep the password out of any print of the querier.
func (q *querier) String() string   { return "eldewrito querier" }
func (q *querier) GoString() string { return "eldewrito querier" }

// maxBody caps the reply: 16 players and the replicated variables fit in a few KiB.
const maxBody = 256 << 10

// Query asks the info server once, with the password when the module has one.
func (q *querier) Query(ctx context.Context, t protocols.Target, tr *wire.Trace) (*protocols.Result, error) {
	hdr := http.Header{"Accept": {"application/json"}}
	if q.password != "" {
		hdr.Set("Authorization", "Basic "+base64.StdEncoding.EncodeToString([]byte("dorito:"+q.password.Reveal())))
	}
	p := tr.Begin("info")
	resp, err := wire.DoHTTP(ctx, t.Addr, wire.HTTPRequest{Path: "/", Header: hdr, MaxBody: maxBody}, tr)
	var in *info
	if err == nil {
		var body []byte
		if body, err = wire.JSONBody(resp); err == nil {
			in, err = decode(body)
		}
	}
	tr.End(p, err)
	if err != nil {
		return nil, err
	}
	return in.result(q.s.Players, q.s.Rules, q.password != ""), nil
}
