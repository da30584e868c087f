package gamespy4

import (
	"context"
	"encoding/binary"
	"errors"
	"math/rand/v2"

	"github.com/gameserver-exporter/gameserver_exporter/protocols"
	"github.com/gameserver-exporter/gameserver_exporter/protocols/internal/gamespy"
	"github.com/gameserver-exporter/gameserver_exporter/protocols/wire"
)

// sessionMask keeps every session id byte below 0x80: vanilla decodes the id as
// UTF-8 text when it builds the challenge reply (spec §2, wiki.vg).
const sessionMask = 0x0F0F0F0F

type querier struct {
	players, rules bool
	retries        int
	basic          bool
}

// Query runs handshake and stat request on one socket (vanilla keys the session by
// source port, spec §2). Settings.Retries counts whole attempts, each in an even
// share of the time left: vanilla tokens die after up to 30 s and a stat request
// with a dead token is silently ignored, so every attempt starts with a fresh
// handshake (spec §3) and a fresh session id.
//
// Not a protocols.UDPExchange: a handshake first, then the stat request with its token.
func (q *querier) Query(ctx context.Context, t protocols.Target, tr *wire.Trace) (*protocols.Result, error) {
	// No re-sends on the socket: the retry unit is handshake + stat (see above).
	return protocols.OnUDP(ctx, t, tr, 0, q.query)
}

func (q *querier) query(ctx context.Context, conn *wire.UDPConn, tr *wire.Trace) (*protocols.Result, error) {
	for attempt := 0; ; attempt++ {
		actx, cancel := gamespy.Slot(ctx, q.retries-attempt)
		res, err := q.attempt(actx, conn, tr)
		cancel()
		if err == nil {
			return res, nil
		}
		if !errors.Is(err, wire.ErrTimeout) || attempt >= q.retries || ctx.Err() != nil {
			return nil, err
		}
		tr.Logf("gamespy4: attempt %d failed: %v", attempt+1, err)
	}
}

// result decodes the stat reply. A reply cut short still counts when it names the
// server; players and rules then carry the error.
func (q *querier) result(b []byte, tr *wire.Trace) (*protocols.Result, error) {
	decode := decodeFull
	if q.basic {
		decode = decodeBasic
	}
	st, err := decode(b)
	if st == nil {
		return nil, err
	}
	res := st.result(q.players, q.rules)
	if err == nil {
		return res, nil
	}
	if res.Name == "" && !res.Players.Known && !res.MaxPlayers.Known {
		return nil, err
	}
	tr.Logf("gamespy4: stat reply cut short: %v", err)
	gamespy.Partial(res, err, q.players, q.rules)
	return res, nil
}

// attempt runs one handshake and one stat request and decodes the reply within the
// info phase, so a reply that decodes to nothing fails the phase as it fails the
// probe.
func (q *querier) attempt(ctx context.Context, conn *wire.UDPConn, tr *wire.Trace) (*protocols.Result, error) {
	var session [4]byte
	binary.BigEndian.PutUint32(session[:], rand.Uint32()&sessionMask)

	p := tr.Begin("challenge")
	var c counter
	b, err := conn.Request(ctx, append([]byte{0xFE, 0xFD, 0x09}, session[:]...), func(b []byte) bool {
		return c.check(b, session, 0x09, 5)
	})
	var token [4]byte
	if err == nil {
		_, token, _, err = gamespy.ParseChallenge(b)
	}
	err = c.Explain(err, "GameSpy 4 replies")
	tr.End(p, err)
	if err != nil {
		return nil, err
	}

	// Vanilla tells full from basic by length alone: 15 bytes is full (spec §4).
	req := append(append([]byte{0xFE, 0xFD, 0x00}, session[:]...), token[:]...)
	minLen := 5
	if !q.basic {
		req = append(req, 0, 0, 0, 0)
		minLen = fullHeaderLen
	}
	p = tr.Begin("info")
	c = counter{}
	b, err = conn.Request(ctx, req, func(b []byte) bool { return c.check(b, session, 0x00, minLen) })
	err = c.Explain(err, "GameSpy 4 replies")
	var res *protocols.Result
	if err == nil {
		res, err = q.result(b, tr)
	}
	tr.End(p, err)
	return res, err
}

// counter classifies replies for the accept funcs; its Explain says what came
// instead when a request timed out.
type counter struct{ gamespy.Counter }

func (c *counter) check(b []byte, session [4]byte, typ byte, minLen int) bool {
	switch {
	case len(b) < 5 || (b[0] != 0x00 && b[0] != 0x09):
		c.Foreign++
	case [4]byte(b[1:5]) != session:
		c.Mismatched++ // a late answer to an earlier attempt, or another client's
	case b[0] != typ:
		// a late reply of the other kind: not an answer, not a fault either
	case len(b) < minLen:
		c.Foreign++
	default:
		return true
	}
	return false
}
