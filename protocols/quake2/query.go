package quake2

import (
	"context"
	"errors"
	"net/netip"

	"github.com/gameserver-exporter/gameserver_exporter/protocols"
	"github.com/gameserver-exporter/gameserver_exporter/protocols/wire"
)

type querier struct {
	players, rules bool
	retries        int
}

// statusRequest asks for the serverinfo and the client lines. (qstat sends
// `status 23`, a QuakeWorld option mask Quake II servers ignore.)
var statusRequest = []byte("\xff\xff\xff\xffstatus\n")

// Query sends one status and decodes the single datagram it gets back: players
// and the serverinfo come together, so there is no separate phase for them.
// The reply carries no token to tie it to the request; the connected socket
// only lets the server's address and port through.
func (q *querier) Query(ctx context.Context, addr netip.AddrPort, tr *wire.Trace) (*protocols.Result, error) {
	conn, err := wire.DialUDP(ctx, addr, tr)
	if err != nil {
		return nil, err
	}
	defer conn.Close()
	conn.Retries = q.retries

	p := tr.Begin("info")
	reply, err := wire.Exchange(ctx, conn, statusRequest, decodeReply)
	tr.End(p, err)
	if err != nil {
		return nil, err
	}
	if reply.Unparsed > 0 || reply.Dropped > 0 {
		tr.Logf("player lines: %d parsed, %d unparsed, %d past the cap of %d",
			len(reply.Players), reply.Unparsed, reply.Dropped, MaxPlayerLines)
	}
	return reply.Result(q.players, q.rules), nil
}

// decodeReply sorts a datagram for wire.Exchange: a datagram that is no status
// reply at all is skipped; one that is, but does not decode, is the answer.
func decodeReply(b []byte) (*Reply, error, error) {
	r, err := Decode(b)
	if errors.Is(err, errNotReply) {
		return nil, err, nil
	}
	return r, nil, err
}
