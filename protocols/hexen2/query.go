package hexen2

import (
	"context"
	"errors"
	"fmt"

	"github.com/gameserver-exporter/gameserver_exporter/protocols"
	"github.com/gameserver-exporter/gameserver_exporter/protocols/wire"
)

type querier struct {
	s protocols.Settings
}

// query asks for the server info, then (when asked for) each player by index and
// the rules one after another, on one socket. The engine answers a player index
// past its active clients with silence, so every follow-up request gets half the
// time left: one that goes unanswered fails its phase and leaves time for the rest.
func (q *querier) query(ctx context.Context, conn *wire.UDPConn, tr *wire.Trace) (*protocols.Result, error) {
	info, err := infoExchange.On(ctx, conn, tr)
	if err != nil {
		return nil, err
	}
	res := info.result()
	// Each list keeps what came before a failure.
	if q.s.Players {
		res.PlayerList, _ = protocols.Phase(&res.PhaseErrors, tr, "players", func() ([]protocols.Player, error) { return players(ctx, conn, info.Players) })
	}
	if q.s.Rules {
		res.Rules, _ = protocols.Phase(&res.PhaseErrors, tr, "rules", func() ([]protocols.KV, error) { return rules(ctx, conn) })
	}
	return res, nil
}

// infoExchange is the first request, the info phase: other control packets are
// skipped, a rejection is the server's error.
var infoExchange = protocols.UDPExchange[*serverInfo]{Request: serverInfoRequest,
	Answers: func(b []byte) error {
		_, skip, _ := answer(b, repServerInfo)
		return skip
	},
	Decode: func(b []byte) (*serverInfo, error) {
		body, _, err := answer(b, repServerInfo)
		if err != nil {
			return nil, err
		}
		return decodeServerInfo(body)
	}}

// answer checks that b is a control packet with op code want and returns its body;
// a rejection is the server's error, other control packets are skipped.
func answer(b []byte, want byte) (body []byte, skip, err error) {
	op, body, skip, err := control(b)
	switch {
	case skip != nil || err != nil:
		return nil, skip, err
	case op == repReject:
		return nil, nil, rejected(body)
	case op != want:
		return nil, fmt.Errorf("%w: control op 0x%02X, waiting for 0x%02X", wire.ErrMalformed, op, want), nil
	}
	return body, nil, nil
}

// players asks for players 0..n-1 and returns those that answered.
func players(ctx context.Context, conn *wire.UDPConn, n uint8) ([]protocols.Player, error) {
	out := make([]protocols.Player, 0, n)
	for i := range n {
		sctx, cancel := protocols.Share(ctx, 2)
		pl, err := wire.Exchange(sctx, conn, playerRequest(i), func(b []byte) (*player, error, error) {
			if _, skip, err := answer(b, repPlayerInfo); skip != nil || err != nil {
				return nil, skip, err
			}
			pl, err := decodePlayer(b)
			if err == nil && pl.Index != i {
				return nil, fmt.Errorf("%w: reply for player %d, asked for %d", wire.ErrMismatch, pl.Index, i), nil
			}
			return pl, nil, err
		})
		cancel()
		if err != nil {
			return out, fmt.Errorf("player %d of %d: %w", i, n, err)
		}
		out = append(out, pl.result())
	}
	return out, nil
}

// rules walks the rule list: each request names the previous rule, the empty
// reply ends it. A reply naming a rule already seen is a late duplicate: skipped.
func rules(ctx context.Context, conn *wire.UDPConn) ([]protocols.KV, error) {
	var out []protocols.KV
	seen := map[string]bool{}
	prev := ""
	for {
		if len(out) >= maxRules {
			return out, fmt.Errorf("%w: more than %d rules", wire.ErrTooLarge, maxRules)
		}
		sctx, cancel := protocols.Share(ctx, 2)
		type rule struct {
			kv protocols.KV
			ok bool
		}
		r, err := wire.Exchange(sctx, conn, ruleRequest(prev), func(b []byte) (rule, error, error) {
			body, skip, err := answer(b, repRuleInfo)
			if skip != nil || err != nil {
				return rule{}, skip, err
			}
			kv, ok, err := decodeRule(body)
			if ok && seen[kv.Key] {
				return rule{}, fmt.Errorf("%w: rule %q again (a late reply)", wire.ErrMismatch, kv.Key), nil
			}
			return rule{kv, ok}, nil, err
		})
		cancel()
		if err != nil {
			if errors.Is(err, wire.ErrTimeout) && ctx.Err() == nil {
				err = fmt.Errorf("rule after %q: %w", prev, err)
			}
			return out, err
		}
		if !r.ok {
			return out, nil
		}
		seen[r.kv.Key] = true
		out = append(out, r.kv)
		prev = r.kv.Key
	}
}
