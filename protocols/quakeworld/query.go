package quakeworld

import (
	"context"
	"errors"
	"fmt"
	"net/netip"

	"github.com/gameserver-exporter/gameserver_exporter/protocols"
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
func (q *querier) Query(ctx context.Context, addr netip.AddrPort, tr *wire.Trace) (*protocols.Result, error) {
	conn, err := wire.DialUDP(ctx, addr, tr)
	if err != nil {
		return nil, err
	}
	defer conn.Close()
	conn.Retries = q.retries

	p := tr.Begin("info")
	var (
		reply   *Reply
		decErr  error // a status reply that does not decode: the answer, but broken
		skipped error // why the last skipped datagram was not an answer
	)
	_, err = conn.Request(ctx, statusRequest, func(b []byte) bool {
		r, err := Decode(b)
		switch {
		case errors.Is(err, errNotReply):
			skipped = err
			tr.Logf("skipped datagram: %v", err)
			return false
		case err != nil:
			decErr = err
			return true
		}
		reply = r
		return true
	})
	if err == nil {
		err = decErr
	}
	if errors.Is(err, protocols.ErrTimeout) && skipped != nil {
		err = fmt.Errorf("no usable reply before the deadline, last one skipped: %w", skipped)
	}
	tr.End(p, err)
	if err != nil {
		return nil, err
	}
	if reply.Unparsed > 0 || reply.Dropped > 0 || !reply.Terminated {
		tr.Logf("player lines: %d parsed, %d unparsed, %d past the cap of %d; NUL terminator seen: %v",
			len(reply.Players), reply.Unparsed, reply.Dropped, MaxPlayerLines, reply.Terminated)
	}
	return reply.Result(q.players, q.rules), nil
}
