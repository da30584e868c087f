package samp

import (
	"context"
	"errors"

	"github.com/gameserver-exporter/gameserver_exporter/protocols"
	"github.com/gameserver-exporter/gameserver_exporter/protocols/wire"
)

type querier struct {
	players, rules bool
	retries        int
	variant        string
	text           func([]byte) string
}

// maxListed is the player count past which servers leave the player list
// unanswered (SA-MP and open.mp alike).
const maxListed = 100

// Query asks for the info ('i'), then on the same socket the rules ('r', always:
// they hold the version and the map; VC:MP has none), open.mp's extra info ('o',
// when the server is open.mp), and, as the module wants them, the players: 'd',
// falling back to 'c' when the server leaves 'd' unanswered for half the time left
// (open.mp never answers it), or 'c' at once on open.mp and VC:MP. A failed phase
// after the info is a phase error.
//
// Not a protocols.UDPExchange: the info, then rules, extra info and players, each its own request.
func (q *querier) Query(ctx context.Context, t protocols.Target, tr *wire.Trace) (*protocols.Result, error) {
	conn, err := protocols.DialUDP(ctx, t, tr, q.retries)
	if err != nil {
		return nil, err
	}
	defer conn.Close()
	vcmp := q.variant == variantVCMP
	magic := magicSAMP
	if vcmp {
		magic = magicVCMP
	}
	ask := func(ctx context.Context, op byte) ([]byte, error) {
		req := request(magic, t.Addr, op)
		head := replyHeader(req)
		return wire.Exchange(ctx, conn, req, func(b []byte) ([]byte, error, error) {
			if skip := answers(b, head); skip != nil {
				return nil, skip, nil
			}
			return b, nil, nil
		})
	}

	p := tr.Begin("info")
	b, err := ask(ctx, opInfo)
	var in *info
	if err == nil {
		in, err = decodeInfo(b, vcmp)
	}
	tr.End(p, err)
	if err != nil {
		return nil, err
	}
	if in.trailing > 0 {
		tr.Logf("%d bytes after the info fields not decoded", in.trailing)
	}
	st := &status{variant: q.variant, in: in}
	var phaseErrs []protocols.PhaseError // until res is made of what the phases brought
	if !vcmp {
		st.rules = askPhase(ctx, tr, &phaseErrs, "rules", ask, opRules, decodeRules)
		if st.openMP(q.text) {
			st.variant = variantOpenMP
		}
	}
	if st.variant == variantOpenMP {
		st.extra = askPhase(ctx, tr, &phaseErrs, "extra", ask, opExtra, decodeExtra)
	}
	res := st.result(q.text, q.rules)
	if q.players {
		q.playerPhase(ctx, tr, &phaseErrs, ask, st, res)
	}
	res.PhaseErrors = phaseErrs
	return res, nil
}

// playerPhase fills the player list; a failure is added to errs. A server
// counting no players, or more than servers list (maxListed), is not asked.
func (q *querier) playerPhase(ctx context.Context, tr *wire.Trace, errs *[]protocols.PhaseError, ask func(context.Context, byte) ([]byte, error), st *status, res *protocols.Result) {
	switch n := st.in.players; {
	case n == 0:
		res.PlayerList = []protocols.Player{}
		return
	case n > maxListed:
		tr.Logf("%d players: servers list no more than %d, no player request", n, maxListed)
		return
	}
	vcmp := st.variant == variantVCMP
	ps, ok := protocols.Phase(errs, tr, "players", func() ([]player, error) {
		op := byte(opDetailed)
		if vcmp || st.variant == variantOpenMP {
			op = opClients
		}
		b, err := askShare(ctx, ask, op)
		if op == opDetailed && errors.Is(err, wire.ErrTimeout) && ctx.Err() == nil {
			tr.Logf("no answer to 'd' (open.mp and some hosts omit it): asking 'c'")
			op = opClients
			b, err = ask(ctx, op)
		}
		if err != nil {
			return nil, err
		}
		return decodePlayers(b, op, vcmp)
	})
	if !ok {
		return
	}
	if len(ps) != int(st.in.players) {
		tr.Logf("%d players listed, the info counts %d", len(ps), st.in.players)
	}
	res.PlayerList = playerList(ps, q.text)
}

// askPhase asks op as the phase name (askShare) and decodes the answer; a
// failure is added to errs.
func askPhase[T any](ctx context.Context, tr *wire.Trace, errs *[]protocols.PhaseError, name string, ask func(context.Context, byte) ([]byte, error), op byte, decode func([]byte) (T, error)) T {
	v, _ := protocols.Phase(errs, tr, name, func() (T, error) {
		b, err := askShare(ctx, ask, op)
		if err != nil {
			var zero T
			return zero, err
		}
		return decode(b)
	})
	return v
}

// askShare asks op within half the time left: a phase that goes unanswered
// leaves the phases after it theirs.
func askShare(ctx context.Context, ask func(context.Context, byte) ([]byte, error), op byte) ([]byte, error) {
	sctx, cancel := protocols.Share(ctx, 2)
	defer cancel()
	return ask(sctx, op)
}
