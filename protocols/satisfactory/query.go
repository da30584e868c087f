package satisfactory

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"

	"github.com/gameserver-exporter/gameserver_exporter/protocols"
	"github.com/gameserver-exporter/gameserver_exporter/protocols/wire"
)

type querier struct {
	retries int
	legacy  bool
}

// Query sends one poll with a fresh random cookie and decodes the reply carrying it.
//
// Datagrams that do not answer the poll (another cookie, no magic, a poll) are
// skipped while waiting. If the deadline passes and such datagrams were all that came,
// the error is the reason the last one was skipped (ErrMismatch for a foreign cookie,
// ErrMalformed for junk) rather than ErrTimeout: the host is answering, just not
// correctly, and saying so is more useful than "no reply".
func (q *querier) Query(ctx context.Context, t protocols.Target, tr *wire.Trace) (*protocols.Result, error) {
	addr := t.Addr
	conn, err := wire.DialUDP(ctx, addr, tr)
	if err != nil {
		return nil, err
	}
	defer conn.Close()
	conn.Retries = q.retries

	cookie := rand.Uint64()
	req := request(cookie)
	if q.legacy {
		req = legacyRequest(cookie)
	}
	p := tr.Begin("info")
	var skipped error
	reply, err := conn.Request(ctx, req, func(b []byte) bool {
		if e := answers(b, cookie); e != nil {
			skipped = e
			tr.Logf("skipped datagram: %v", e)
			return false
		}
		return true
	})
	if err != nil {
		if skipped != nil && (errors.Is(err, wire.ErrTimeout) || errors.Is(err, wire.ErrMalformed)) {
			err = fmt.Errorf("no datagram answered the poll, last one skipped: %w", skipped)
		}
		tr.End(p, err)
		return nil, err
	}
	resp, err := decode(reply)
	tr.End(p, err)
	if err != nil {
		return nil, err
	}
	if resp.Trailing > 0 {
		tr.Logf("ignored %d bytes after the terminator", resp.Trailing)
	}
	return resp.Result(), nil
}
