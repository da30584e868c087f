package savage

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"math/rand/v2"

	"github.com/gameserver-exporter/gameserver_exporter/protocols"
	"github.com/gameserver-exporter/gameserver_exporter/protocols/wire"
)

type querier struct {
	s protocols.Settings
}

// query asks for the extended info (CE), which carries the player list. A server or
// proxy that leaves CE unanswered for half the deadline is asked for the basic info
// (C8) with the rest of it: the status is then known without the player list.
func (q *querier) query(ctx context.Context, conn *wire.UDPConn, tr *wire.Trace) (*protocols.Result, error) {
	p := tr.Begin("info")
	ext := newEcho()
	m := &matcher{echoes: [][4]byte{ext}}
	b, err := request(ctx, conn, newRequest(cmdExtInfo, ext), m, true)
	var extErr error
	if errors.Is(err, wire.ErrTimeout) && ctx.Err() == nil {
		extErr = err
		tr.Logf("extended info unanswered, falling back to basic info: %v", err)
		basic := newEcho()
		m.echoes = append(m.echoes, basic) // a late CF still answers
		b, err = request(ctx, conn, newRequest(cmdInfo, basic), m, false)
	}
	if err != nil {
		if errors.Is(err, wire.ErrTimeout) && m.mismatched > 0 {
			err = fmt.Errorf("%w: %d replies echoed another request's bytes", wire.ErrMismatch, m.mismatched)
		}
		tr.End(p, err)
		return nil, err
	}
	r, err := decode(b)
	tr.End(p, err)
	if err != nil {
		return nil, err
	}
	res := r.Result(q.s.Players, q.s.Rules)
	if extErr != nil && r.Cmd == cmdInfoReply {
		for i := range res.PhaseErrors {
			if res.PhaseErrors[i].Phase == "players" {
				res.PhaseErrors[i].Err = fmt.Errorf("%w (extended info request)", extErr)
			}
		}
	}
	return res, nil
}

// request runs one exchange. The extended request gets half the time left so that
// the fallback still has the other half.
func request(ctx context.Context, conn *wire.UDPConn, req []byte, m *matcher, half bool) ([]byte, error) {
	if half {
		var cancel context.CancelFunc
		ctx, cancel = protocols.Share(ctx, 2)
		defer cancel()
	}
	return conn.Request(ctx, req, m.accept)
}

// matcher accepts info replies whose echo is one we sent; it counts the ones that
// echo something else so that a timeout can be reported as a mismatch.
type matcher struct {
	echoes     [][4]byte
	mismatched int
}

func (m *matcher) accept(b []byte) bool {
	if len(b) < minReply || !bytes.Equal(b[:len(header)], header) {
		return false
	}
	if c := b[len(header)]; c != cmdInfoReply && c != cmdExtInfoReply {
		return false
	}
	for _, e := range m.echoes {
		if bytes.Equal(b[echoOffset:minReply], e[:]) {
			return true
		}
	}
	m.mismatched++
	return false
}

// newEcho picks the 4 echo bytes. None is 0xFF or 0xFE (simple parsers scan the
// whole datagram for those delimiters) nor 0x00.
func newEcho() [4]byte {
	var e [4]byte
	for i := range e {
		e[i] = byte(1 + rand.N(0xFD))
	}
	return e
}
