package quakeworld

import (
	"context"

	"github.com/gameserver-exporter/gameserver_exporter/protocols"
	"github.com/gameserver-exporter/gameserver_exporter/protocols/internal/idtech"
	"github.com/gameserver-exporter/gameserver_exporter/protocols/wire"
)

type querier struct {
	players, rules bool
	retries        int
}

// statusRequest is the plain `status`: every QuakeWorld server answers it, and
// it lists players without spectators. (qstat's `status 23` adds spectators
// and teams, but only on mvdsv and FTE.)
var statusRequest = []byte("\xff\xff\xff\xffstatus\n")

// Query sends one status and decodes the single datagram it gets back: players
// and the serverinfo come together, so there is no separate phase for them.
// The reply carries no token to tie it to the request; the connected socket
// only lets the server's address and port through.
func (q *querier) Query(ctx context.Context, t protocols.Target, tr *wire.Trace) (*protocols.Result, error) {
	addr := t.Addr
	st := idtech.Status[*reply]{Request: statusRequest, Retries: q.retries, Decode: decode, NotReply: errNotReply}
	r, err := st.Query(ctx, protocols.At(addr), tr)
	if err != nil {
		return nil, err
	}
	if r.Unparsed > 0 || r.Dropped > 0 || !r.Terminated {
		tr.Logf("player lines: %d parsed, %d unparsed, %d past the cap of %d; NUL terminator seen: %v",
			len(r.Players), r.Unparsed, r.Dropped, idtech.MaxPlayerLines, r.Terminated)
	}
	return r.result(q.players, q.rules), nil
}
