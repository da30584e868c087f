package gamespy3

import (
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"math/rand/v2"
	"time"

	"github.com/gameserver-exporter/gameserver_exporter/protocols"
	"github.com/gameserver-exporter/gameserver_exporter/protocols/internal/gamespy"
	"github.com/gameserver-exporter/gameserver_exporter/protocols/wire"
)

const (
	// idleWait bounds the wait for the next packet of a split reply once one came:
	// a server sends them back to back, so a longer silence is a lost packet, and
	// the probe reports what it has before its deadline.
	idleWait = 500 * time.Millisecond
	// maxDatagrams bounds what one stat request may read, strays included.
	maxDatagrams = 2 * maxPackets
)

var (
	payloadAll   = []byte{0xFF, 0xFF, 0xFF, 0x01} // info+rules, players, teams, split-capable
	payloadJC2MP = []byte{0xFF, 0xFF, 0xFF, 0x02}
)

type querier struct {
	players, rules     bool
	retries            int
	noChallenge, jc2mp bool
	text               func([]byte) string // the module's encoding:, nil: as sent (wire.UTF8)
}

// Query runs handshake and stat request. Settings.Retries counts whole attempts,
// each in an even share of the time left: a stat request re-sent with a stale
// challenge gets no answer (spec §3), so every attempt starts with a fresh handshake
// and a fresh session id (late packets of an earlier attempt are then ignored).
//
// Not a protocols.UDPExchange: a handshake first, then the stat request with its challenge.
func (q *querier) Query(ctx context.Context, t protocols.Target, tr *wire.Trace) (*protocols.Result, error) {
	// No re-sends on the socket: the retry unit is handshake + stat (see above).
	return protocols.OnUDP(ctx, t, tr, 0, q.query)
}

func (q *querier) query(ctx context.Context, conn *wire.UDPConn, tr *wire.Trace) (*protocols.Result, error) {
	var best *assembler // the last partial reply, reported if nothing better comes
	for attempt := 0; ; attempt++ {
		actx, cancel := gamespy.Slot(ctx, q.retries-attempt)
		res, a, err := q.attempt(actx, conn, tr)
		cancel()
		if err == nil {
			return res, nil
		}
		if a != nil {
			best = a
		}
		retry := errors.Is(err, wire.ErrTimeout) || errors.Is(err, errIncomplete)
		if !retry || attempt >= q.retries || ctx.Err() != nil {
			if best == nil || !retry {
				return nil, err
			}
			return q.result(best, tr)
		}
		tr.Logf("gamespy3: attempt %d failed: %v", attempt+1, err)
	}
}

// errIncomplete marks a split reply with packets missing (it also wraps ErrTruncated).
var errIncomplete = errors.New("split reply incomplete")

// result decodes the packets an attempt collected. A reply with packets missing
// still counts when its info came through: players and rules then carry the error.
func (q *querier) result(a *assembler, tr *wire.Trace) (*protocols.Result, error) {
	if q.jc2mp {
		res, err := decodeJC2MPPacket(*a.parts[0])
		if res == nil {
			return nil, err
		}
		if !q.players {
			res.PlayerList = nil
		}
		if !q.rules {
			res.Rules = nil
		}
		if err != nil && q.players {
			res.PhaseErrors = append(res.PhaseErrors, protocols.PhaseError{Phase: "players", Err: err})
		}
		return res, nil
	}
	r, cut, err := a.decode()
	if err != nil {
		return nil, err
	}
	r.recode(q.text)
	res := r.result(q.rules)
	list := r.playerList(res)
	if r.dropped > 0 {
		tr.Logf("gamespy3: %d table values past the row or column caps dropped", r.dropped)
	}
	if cut == nil {
		r.setBots(res, list)
		if q.players {
			res.PlayerList = list
		}
		return res, nil
	}
	if gamespy.Nothing(res) {
		return nil, cut
	}
	tr.Logf("gamespy3: partial reply: %v", cut)
	gamespy.Partial(res, cut, q.players, q.rules)
	return res, nil
}

// attempt runs one handshake (unless disabled) and one stat request, and decodes
// a whole reply within the info phase, so a reply that decodes to nothing fails
// the phase as it fails the probe. With packets missing it returns those it
// collected and an error that wraps errIncomplete.
func (q *querier) attempt(ctx context.Context, conn *wire.UDPConn, tr *wire.Trace) (*protocols.Result, *assembler, error) {
	var session [4]byte
	binary.BigEndian.PutUint32(session[:], rand.Uint32())
	var token []byte
	if !q.noChallenge {
		var err error
		if token, err = handshake(ctx, conn, tr, session); err != nil {
			return nil, nil, err
		}
	}
	p := tr.Begin("info")
	a, err := q.stat(ctx, conn, tr, session, token, !q.noChallenge)
	var res *protocols.Result
	if err == nil {
		res, err = q.result(a, tr)
	}
	tr.End(p, err)
	return res, a, err
}

// handshake asks for a challenge (spec §3) and returns the 4 bytes the stat request
// must carry, or nil when the server wants none (token "0").
func handshake(ctx context.Context, conn *wire.UDPConn, tr *wire.Trace, session [4]byte) ([]byte, error) {
	p := tr.Begin("challenge")
	req := append([]byte{0xFE, 0xFD, 0x09}, session[:]...)
	var c counter
	b, err := conn.Request(ctx, req, func(b []byte) bool { return c.check(b, session, true, false) })
	var token [4]byte
	need := false
	if err == nil {
		_, token, need, err = gamespy.ParseChallenge(b)
	}
	err = c.Explain(err, "GameSpy v3")
	tr.End(p, err)
	if err != nil || !need {
		return nil, err
	}
	return token[:], nil
}

// stat sends the stat request and collects its packets. A challenge reply instead
// of a stat reply means the server wants the handshake after all (qstat): done once.
func (q *querier) stat(ctx context.Context, conn *wire.UDPConn, tr *wire.Trace, session [4]byte, token []byte, shook bool) (*assembler, error) {
	payload := payloadAll
	if q.jc2mp {
		payload = payloadJC2MP
	}
	req := append(append(append([]byte{0xFE, 0xFD, 0x00}, session[:]...), token...), payload...)
	var c counter
	b, err := conn.Request(ctx, req, func(b []byte) bool {
		return c.check(b, session, !shook, true)
	})
	if err != nil {
		return nil, c.Explain(err, "GameSpy v3")
	}
	if b[0] == 0x09 {
		tr.Log("gamespy3: stat request answered by a challenge: doing the handshake")
		if token, err = handshake(ctx, conn, tr, session); err != nil {
			return nil, err
		}
		return q.stat(ctx, conn, tr, session, token, true)
	}
	a := &assembler{single: q.jc2mp}
	defer restoreDeadline(ctx, conn)
	n := 1
	if shook {
		n = 2 // the handshake's reply counts too: a probe reads at most maxDatagrams
	}
	for {
		p, err := parsePacket(b)
		if err != nil {
			return nil, err
		}
		done, dup, err := a.add(p)
		switch {
		case err != nil:
			return nil, err
		case done:
			return a, nil
		case dup:
			tr.Ignore("duplicate packet")
		}
		if b, err = next(ctx, conn, tr, session, &n); err != nil {
			if errors.Is(err, wire.ErrTimeout) {
				return a, fmt.Errorf("%w: %w: packets %v missing", wire.ErrTruncated, errIncomplete, a.missing())
			}
			return nil, err
		}
	}
}

// next waits up to idleWait for the next datagram of the reply, skipping strays;
// *n counts the datagrams read for this request.
func next(ctx context.Context, conn *wire.UDPConn, tr *wire.Trace, session [4]byte, n *int) ([]byte, error) {
	conn.SetReadDeadline(gamespy.IdleDeadline(ctx, idleWait))
	var c counter
	for ; *n < maxDatagrams; *n++ {
		b, err := conn.Recv()
		if err != nil {
			return nil, err
		}
		if c.check(b, session, false, true) {
			*n++
			return b, nil
		}
		tr.Ignore("not a packet of this reply")
	}
	return nil, fmt.Errorf("%w: more than %d datagrams for one stat request", wire.ErrTooLarge, maxDatagrams)
}

func restoreDeadline(ctx context.Context, conn *wire.UDPConn) {
	dl, _ := ctx.Deadline() // zero: none
	conn.SetReadDeadline(dl)
}

// counter classifies replies for the accept funcs; its Explain says what came
// instead when a request timed out.
type counter struct{ gamespy.Counter }

// check accepts a challenge reply (when challenge) or a stat reply with its whole
// header (when stat) that echoes session.
func (c *counter) check(b []byte, session [4]byte, challenge, stat bool) bool {
	switch {
	case len(b) < 5 || (b[0] != 0x00 && b[0] != 0x09) || (b[0] == 0x00 && len(b) < headerLen):
		c.Foreign++
	case [4]byte(b[1:5]) != session:
		c.Mismatched++
	case b[0] == 0x09 && challenge, b[0] == 0x00 && stat:
		return true
	}
	return false
}
