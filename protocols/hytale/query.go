package hytale

import (
	"bytes"
	"context"
	"errors"
	"net/netip"

	"github.com/gameserver-exporter/gameserver_exporter/protocols"
	"github.com/gameserver-exporter/gameserver_exporter/protocols/wire"
)

type querier struct {
	flavours []string
	ports    map[string]uint16 // 0: the target's port
	players  bool
	retries  int
}

var request = []byte("QUERY\n")

// Query tries the flavours in turn in one phase: each gets an even share of the
// time left, and what one does not use passes to the next. The first answer
// wins; when none answers, the most telling failure is returned (an answer that
// made no sense over silence, silence over a refused connection).
func (q *querier) Query(ctx context.Context, t protocols.Target, tr *wire.Trace) (*protocols.Result, error) {
	return protocols.InfoPhase(ctx, t, tr, q.query)
}

func (q *querier) query(ctx context.Context, t protocols.Target, tr *wire.Trace) (*protocols.Result, error) {
	var best error
	for i, f := range q.flavours {
		addr := t.OnPort(q.ports[f])
		fctx, cancel := protocols.Share(ctx, len(q.flavours)-i)
		res, err := q.flavour(fctx, f, addr, tr)
		cancel()
		if err == nil {
			res.Info = append(res.Info, protocols.KV{Key: "flavour", Value: f})
			// gameserver_info{protocol} says which flavour answered.
			res.Protocol = "hytale/" + f
			if addr != t.Addr {
				res.QueryPort = addr.Port()
			}
			return res, nil
		}
		tr.Logf("%s flavour on %v: %v", f, addr, err)
		if best == nil || rank(err) > rank(best) {
			best = err
		}
		if ctx.Err() != nil {
			break
		}
	}
	return nil, best
}

func (q *querier) flavour(ctx context.Context, f string, addr netip.AddrPort, tr *wire.Trace) (*protocols.Result, error) {
	switch f {
	case flavourHyQuery:
		return q.hyquery(ctx, addr, tr)
	case flavourNitrado:
		return q.nitrado(ctx, addr, tr)
	}
	return queryLine(ctx, addr, tr)
}

// ownAnswer marks the failure of a flavour whose own plugin answered (its OK or
// ERROR line, its HyQuery magic, its JSON): that tells more than the garbage
// another flavour read from the same port, so the probe reports it.
type ownAnswer struct{ error }

func (e ownAnswer) Unwrap() error { return e.error }

// rank orders failures by what they tell: a refused connection least, then
// silence, then an answer that made no sense (often another flavour's server on
// the port), then a plugin's own answer that failed or refused (an ERROR line,
// an HTTP 403, JSON without the sections read).
func rank(err error) int {
	var own ownAnswer
	switch {
	case errors.As(err, &own):
		return 3
	case errors.Is(err, wire.ErrRefused):
		return 0
	case errors.Is(err, wire.ErrTimeout):
		return 1
	case errors.Is(err, wire.ErrServer):
		return 3
	}
	return 2
}

// queryLine is the serverlistping flavour: one connection, QUERY, one line.
func queryLine(ctx context.Context, addr netip.AddrPort, tr *wire.Trace) (*protocols.Result, error) {
	conn, err := wire.DialTCP(ctx, addr, tr)
	if err != nil {
		return nil, err
	}
	defer conn.Close()
	// A rate-limited server answers on connect and closes without reading, so
	// the write may fail (broken pipe) while its reply waits in our buffer:
	// read it anyway.
	if _, err := conn.Write(request); err != nil {
		tr.Logf("request not sent (%v); reading what the server sent", err)
	}
	line, err := conn.ReadLine(maxLine)
	if err != nil {
		return nil, err
	}
	st, err := decode(line)
	if err != nil {
		if bytes.HasPrefix(line, []byte("OK ")) || bytes.HasPrefix(line, []byte("ERROR")) {
			err = ownAnswer{err}
		}
		return nil, err
	}
	if st.Players > st.MaxPlayers {
		tr.Logf("server reports %d players over its maximum of %d", st.Players, st.MaxPlayers)
	}
	return &protocols.Result{
		Players:    protocols.Known(st.Players),
		MaxPlayers: protocols.Known(st.MaxPlayers),
		Info:       []protocols.KV{{Key: "reply", Value: wire.UTF8(line)}},
	}, nil
}
