package gamespy1

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"time"

	"github.com/gameserver-exporter/gameserver_exporter/protocols"
	"github.com/gameserver-exporter/gameserver_exporter/protocols/internal/gamespy"
	"github.com/gameserver-exporter/gameserver_exporter/protocols/wire"
)

// idleWait bounds the wait for the rest of a reply once a packet of it arrived (spec
// §5 step 7): a server sends the packets of one reply back to back, so a longer
// silence means a lost packet or a server that never sends \final\.
const idleWait = 500 * time.Millisecond

type querier struct {
	players, rules bool
	status         []byte // the one request, unless separate
	separate       bool
	text           func([]byte) string // the module's encoding:, nil: as sent (wire.UTF8)
}

// Not a protocols.UDPExchange: a reply of several datagrams, or one request a section.
func (q *querier) query(ctx context.Context, conn *wire.UDPConn, tr *wire.Trace) (*protocols.Result, error) {
	if q.separate {
		return q.querySeparate(ctx, conn, tr)
	}

	p := tr.Begin("info")
	pairs, _, err := exchange(ctx, conn, tr, q.status, nil, q.text)
	res, partial, err := infoOf(pairs, err, q.rules)
	tr.End(p, err)
	if err != nil {
		return nil, err
	}
	if q.players {
		res.PlayerList = decodePlayers(pairs, res)
	}
	if partial != nil {
		// The lost packets may have held players or rules: say so, keep the rest.
		tr.Logf("gamespy1: partial reply: %v", partial)
		gamespy.Partial(res, partial, q.players, q.rules)
	}
	return res, nil
}

// infoOf decodes the info part of a reply. A reply with packets missing still counts
// when its info keys came through: then partial is the ErrTruncated error.
func infoOf(pairs []gamespy.Pair, err error, rules bool) (res *protocols.Result, partial, fatal error) {
	if pairs == nil {
		return nil, nil, err
	}
	res = decodeInfo(pairs, rules)
	if err != nil && gamespy.Nothing(res) {
		return nil, nil, err
	}
	return res, err, nil
}

// querySeparate asks each section on its own (Options.Request "separate").
func (q *querier) querySeparate(ctx context.Context, conn *wire.UDPConn, tr *wire.Trace) (*protocols.Result, error) {
	p := tr.Begin("info")
	pairs, id, err := exchange(ctx, conn, tr, []byte(`\basic\\info\`), nil, q.text)
	res, partial, err := infoOf(pairs, err, false)
	tr.End(p, err)
	if err != nil {
		return nil, err
	}
	if partial != nil {
		tr.Logf("gamespy1: partial info reply: %v", partial)
	}
	seen := []string{id}
	if q.players {
		res.PlayerList, _ = protocols.Phase(&res.PhaseErrors, tr, "players", func() ([]protocols.Player, error) {
			pairs, id, err := exchange(ctx, conn, tr, []byte(`\players\`), seen, q.text)
			seen = append(seen, id)
			if pairs == nil {
				return nil, err
			}
			return decodePlayers(pairs, res), err // what arrived, even cut short
		})
	}
	if q.rules {
		res.Rules, _ = protocols.Phase(&res.PhaseErrors, tr, "rules", func() ([]protocols.KV, error) {
			pairs, _, err := exchange(ctx, conn, tr, []byte(`\rules\`), seen, q.text)
			if pairs == nil {
				return nil, err
			}
			return decodeInfo(pairs, true).Rules, err
		})
	}
	return res, nil
}

// exchange sends req and reads the datagrams of its reply until the reply is
// complete, a datagram cap is hit, or no packet came for idleWait (or the deadline).
// An incomplete reply comes back with what arrived and an error wrapping
// ErrTruncated. exclude holds the queryids of earlier replies on this socket, whose
// late packets must not be taken for this one.
func exchange(ctx context.Context, conn *wire.UDPConn, tr *wire.Trace, req []byte, exclude []string, text func([]byte) string) ([]gamespy.Pair, string, error) {
	a := assembler{exclude: exclude}
	foreign := 0
	first, err := conn.Request(ctx, req, func(b []byte) bool {
		if len(b) == 0 || b[0] != '\\' {
			foreign++
			return false
		}
		if len(exclude) > 0 {
			if p, err := parsePacket(b); err == nil && slices.Contains(exclude, p.query) {
				return false
			}
		}
		return true
	})
	if errors.Is(err, wire.ErrTimeout) && foreign > 0 {
		// Something answers on the port, but not in GameSpy v1.
		return nil, "", fmt.Errorf("%w: %d replies that are not GameSpy v1 (no leading backslash)", wire.ErrMalformed, foreign)
	}
	if err != nil {
		return nil, "", err
	}
	for b := first; ; {
		done, ignore, err := a.add(b)
		if err != nil {
			return nil, "", err
		}
		if ignore != "" {
			tr.Ignore(ignore)
		}
		if done {
			break
		}
		conn.SetReadDeadline(gamespy.IdleDeadline(ctx, idleWait))
		if b, err = conn.Recv(); err != nil {
			if errors.Is(err, wire.ErrTimeout) {
				break // report what arrived
			}
			return nil, "", err
		}
	}
	if a.garbled {
		tr.Log("gamespy1: pairs dropped after a token that is not a key (backslash inside a value?)")
	}
	pairs, err := a.result()
	if text != nil {
		gamespy.Recode(text, pairs)
	}
	if err == nil && !a.complete() {
		tr.Logf("gamespy1: no \\final\\ after packet %d; taking the reply as complete", a.highest)
	}
	return pairs, a.query, err
}
