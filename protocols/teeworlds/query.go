package teeworlds

import (
	"bytes"
	"context"
	"crypto/rand"
	"encoding/binary"
	"errors"
	"fmt"

	"github.com/gameserver-exporter/gameserver_exporter/protocols"
	"github.com/gameserver-exporter/gameserver_exporter/protocols/wire"
)

type querier struct {
	version string
	retries int
	players bool
}

// tokens are the random values that tie replies to this probe.
type tokens struct {
	mine    uint32 // our 0.7 connection token
	browser int32  // 0.7 gie3 browser token, echoed in inf3
	tok06   byte   // 0.6 gie3 token, echoed as a decimal string
}

func newTokens() tokens {
	var b [8]byte
	rand.Read(b[:])
	t := tokens{mine: binary.BigEndian.Uint32(b[:]), browser: int32(binary.BigEndian.Uint32(b[4:]) & 0xFFFFFF), tok06: b[7]}
	if t.mine == tokenNone {
		t.mine--
	}
	return t
}

// Query runs the exchange of the configured version. In auto mode the first
// round trip ("challenge") carries both the 0.7 token request and the 0.6
// gie3: a 0.6 server answers with its info at once, a 0.7 server with its
// token, and then the 0.7 info request follows ("info").
//
// Not a protocols.UDPExchange: a 0.7 server wants a token round trip before the info.
func (q *querier) Query(ctx context.Context, target protocols.Target, tr *wire.Trace) (*protocols.Result, error) {
	return protocols.OnUDP(ctx, target, tr, q.retries, q.query)
}

func (q *querier) query(ctx context.Context, conn *wire.UDPConn, tr *wire.Trace) (*protocols.Result, error) {
	t := newTokens()
	var in info
	var err error
	if q.version == version06 {
		p := tr.Begin("info")
		in, err = q.info06(ctx, conn, tr, t)
		tr.End(p, err)
	} else {
		in, err = q.query07(ctx, conn, tr, t)
	}
	if err != nil {
		return nil, err
	}
	if in.Trailing > 0 {
		tr.Logf("ignored %d bytes after %d client entries", in.Trailing, maxClients)
	}
	return in.Result(q.players), nil
}

func (q *querier) info06(ctx context.Context, conn *wire.UDPConn, tr *wire.Trace, t tokens) (info, error) {
	var skipped error
	reply, err := conn.Request(ctx, infoRequest06(t.tok06), func(b []byte) bool {
		skipped = answers06(b, t.tok06)
		return keep(tr, skipped)
	})
	if err != nil {
		return info{}, explain(err, skipped)
	}
	return decode06(reply)
}

func (q *querier) query07(ctx context.Context, conn *wire.UDPConn, tr *wire.Trace, t tokens) (info, error) {
	p := tr.Begin("challenge")
	var skipped error
	accept := func(b []byte) bool {
		_, skipped = tokenResponse07(b, t.mine)
		if skipped != nil && q.version == versionAuto {
			if answers06(b, t.tok06) == nil {
				skipped = nil
			}
		}
		return keep(tr, skipped)
	}
	var reply []byte
	var err error
	if q.version == versionAuto {
		reply, err = requestBoth(ctx, conn, q.retries, infoRequest06(t.tok06), tokenRequest07(t.mine), accept)
	} else {
		reply, err = conn.Request(ctx, tokenRequest07(t.mine), accept)
	}
	err = explain(err, skipped)
	tr.End(p, err)
	if err != nil {
		return info{}, err
	}
	server, err := tokenResponse07(reply, t.mine)
	if err != nil { // auto mode: a 0.6 server answered with its info
		return decode06(reply)
	}

	p = tr.Begin("info")
	skipped = nil
	reply, err = conn.Request(ctx, infoRequest07(server, t.mine, t.browser), func(b []byte) bool {
		skipped = answers07(b, t.mine, t.browser)
		return keep(tr, skipped)
	})
	var in info
	if err = explain(err, skipped); err == nil {
		payload, _ := connless07(reply, t.mine)
		in, err = decodeInfo07(payload)
	}
	tr.End(p, err)
	return in, err
}

// requestBoth sends first (once per attempt, unanswered) and then req via
// conn.Request, splitting the time left across the attempts like
// wire.UDPConn.Request does, so both requests are re-sent on a retry.
func requestBoth(ctx context.Context, conn *wire.UDPConn, retries int, first, req []byte, accept func([]byte) bool) ([]byte, error) {
	conn.Retries = 0
	defer func() { conn.Retries = retries }()
	for attempt := 0; ; attempt++ {
		left := retries - attempt
		actx, cancel := protocols.Share(ctx, left+1)
		if err := conn.Send(first); err != nil {
			cancel()
			return nil, err
		}
		b, err := conn.Request(actx, req, accept)
		cancel()
		if err == nil || left <= 0 || !errors.Is(err, wire.ErrTimeout) || ctx.Err() != nil {
			return b, err
		}
	}
}

// answers06 says why a datagram is not the 0.6 inf3 for our token (nil: it is).
func answers06(b []byte, tok byte) error {
	payload, err := connless06(b)
	if err != nil {
		return err
	}
	if !bytes.HasPrefix(payload, infoMagic) {
		return fmt.Errorf("%w: 0.6 connectionless packet is not inf3", wire.ErrMalformed)
	}
	echo, _, _ := bytes.Cut(payload[len(infoMagic):], []byte{0})
	if want := fmt.Sprint(tok); string(echo) != want {
		return fmt.Errorf("%w: inf3 echoes token %q, ours is %s", wire.ErrMismatch, echo, want)
	}
	return nil
}

// answers07 says why a datagram is not the 0.7 inf3 for our tokens.
func answers07(b []byte, mine uint32, browser int32) error {
	payload, err := connless07(b, mine)
	if err != nil {
		return err
	}
	if !bytes.HasPrefix(payload, infoMagic) {
		return fmt.Errorf("%w: 0.7 connectionless packet is not inf3", wire.ErrMalformed)
	}
	p := reader{r: wire.NewReader(payload[len(infoMagic):])}
	if echo := p.int("token"); p.r.Err() == nil && echo != int64(browser) {
		return fmt.Errorf("%w: inf3 echoes browser token %d, ours is %d", wire.ErrMismatch, echo, browser)
	}
	return nil
}

func decode06(b []byte) (info, error) {
	payload, err := connless06(b)
	if err != nil {
		return info{}, err
	}
	return decodeInfo06(payload)
}

// keep notes a skipped datagram in the trace and says whether to accept it.
func keep(tr *wire.Trace, why error) bool {
	if why != nil {
		tr.Logf("skipped datagram: %v", why)
		return false
	}
	return true
}

// explain replaces a timeout by the reason the last datagram was skipped.
func explain(err, skipped error) error {
	if err != nil && skipped != nil && (errors.Is(err, wire.ErrTimeout) || errors.Is(err, wire.ErrMalformed)) {
		return fmt.Errorf("no answer, last datagram skipped: %w", skipped)
	}
	return err
}
