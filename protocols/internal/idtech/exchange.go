package idtech

import (
	"context"
	"errors"

	"github.com/gameserver-exporter/gameserver_exporter/protocols"
	"github.com/gameserver-exporter/gameserver_exporter/protocols/wire"
)

// Status is the family's one-datagram exchange: one request, answered by one
// datagram holding the info string and the players together, so the whole
// query is the single "info" phase.
type Status[R any] struct {
	Request []byte
	Retries int // re-sends of an unanswered request within the deadline
	// Decode decodes a datagram. An error wrapping NotReply means the datagram
	// is no answer at all (a stray, another packet type): it is skipped. Any
	// other error is the answer, broken.
	Decode   func([]byte) (R, error)
	NotReply error
	// Check, when set, rejects a decoded reply that answers another request
	// (a challenge that is not ours): it is skipped too.
	Check func(R) error
}

// Query sends the request to addr and returns the first reply Decode and Check
// take (see wire.Exchange).
func (s *Status[R]) Query(ctx context.Context, t protocols.Target, tr *wire.Trace) (R, error) {
	addr := t.Addr
	conn, err := wire.DialUDP(ctx, addr, tr)
	if err != nil {
		var zero R
		return zero, err
	}
	defer conn.Close()
	conn.Retries = s.Retries

	p := tr.Begin("info")
	reply, err := wire.Exchange(ctx, conn, s.Request, s.sort)
	tr.End(p, err)
	return reply, err
}

// sort sorts a datagram three ways for wire.Exchange.
func (s *Status[R]) sort(b []byte) (r R, skip, err error) {
	var zero R
	r, err = s.Decode(b)
	switch {
	case errors.Is(err, s.NotReply):
		return zero, err, nil
	case err != nil:
		return zero, nil, err
	}
	if s.Check != nil {
		if skip := s.Check(r); skip != nil {
			return zero, skip, nil
		}
	}
	return r, nil, nil
}
