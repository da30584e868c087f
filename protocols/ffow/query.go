package ffow

import (
	"context"

	"github.com/gameserver-exporter/gameserver_exporter/protocols"
	"github.com/gameserver-exporter/gameserver_exporter/protocols/internal/steam"
	"github.com/gameserver-exporter/gameserver_exporter/protocols/wire"
)

type querier struct {
	players, rules bool
	retries        int
}

func newQuerier(s protocols.Settings) (protocols.Querier, error) {
	return &querier{players: s.Players, rules: s.Rules, retries: max(s.Retries, 0)}, nil
}

// typeIs returns a match for steam.Exchanger.Request accepting messages of type t.
func typeIs(t byte) func([]byte) bool { return func(m []byte) bool { return m[4] == t } }

// Query asks for the LSQ info, then (as configured) for a challenge and with it
// the players and rules. A failure after the info is a phase error.
//
// Not a protocols.UDPExchange: the info, then a challenge and with it the players and rules.
func (q *querier) Query(ctx context.Context, t protocols.Target, tr *wire.Trace) (*protocols.Result, error) {
	conn, err := wire.DialUDP(ctx, t.Addr, tr)
	if err != nil {
		return nil, err
	}
	defer conn.Close()
	x := &steam.Exchanger{Conn: conn, Tr: tr, Retries: q.retries, Addr: t.Addr}

	p := tr.Begin("info")
	var in *info
	msg, err := x.Request(ctx, infoRequest, typeIs(typeInfo), false)
	if err == nil {
		in, err = decodeInfo(msg)
	}
	tr.End(p, err)
	if err != nil {
		return nil, err
	}
	res := in.result()
	if !q.players && !q.rules {
		return res, nil
	}
	if in.Version < minListVersion {
		tr.Logf("protocol version %d answers no players or rules (qstat: only above 1)", in.Version)
		return res, nil
	}
	fail := func(phase string, err error) {
		res.PhaseErrors = append(res.PhaseErrors, protocols.PhaseError{Phase: phase, Err: err})
	}

	// Not a protocols.Phase: the challenge's failure is the players' and the rules'.
	p = tr.Begin("challenge")
	var ch []byte
	msg, err = x.Request(ctx, getChallengeRequest, typeIs(typeChallenge), false)
	if err == nil {
		ch, err = steam.DecodeChallenge(msg)
	}
	tr.End(p, err)
	if err != nil {
		if q.players {
			fail("players", err)
		}
		if q.rules {
			fail("rules", err)
		}
		return res, nil
	}
	q.lists(ctx, x, ch, res, tr)
	return res, nil
}

// lists asks for the players and rules (as configured) with the challenge ch;
// a failure is a phase error.
func (q *querier) lists(ctx context.Context, x *steam.Exchanger, ch []byte, res *protocols.Result, tr *wire.Trace) {
	if q.players {
		if ps, ok := protocols.Phase(&res.PhaseErrors, tr, "players", func() ([]player, error) {
			msg, err := x.Fetch(ctx, steam.WithChallenge(playersBase, ch), typePlayers, false)
			if err != nil {
				return nil, err
			}
			return decodePlayers(msg)
		}); ok {
			res.PlayerList = playerList(ps)
		}
	}
	if q.rules {
		res.Rules, _ = protocols.Phase(&res.PhaseErrors, tr, "rules", func() ([]protocols.KV, error) {
			msg, err := x.Fetch(ctx, steam.WithChallenge(rulesBase, ch), typeRules, false)
			if err != nil {
				return nil, err
			}
			return decodeRules(msg)
		})
	}
}
