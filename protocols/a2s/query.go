package a2s

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/gameserver-exporter/gameserver_exporter/protocols"
	"github.com/gameserver-exporter/gameserver_exporter/protocols/internal/steam"
	"github.com/gameserver-exporter/gameserver_exporter/protocols/wire"
)

// getChallengeRequest is A2S_SERVERQUERY_GETCHALLENGE (spec §9): deprecated, but
// the only way some old servers (Fuel of War's era) hand out the challenge they want
// on every request. It is answered with S2C_CHALLENGE. Built once, never written.
var getChallengeRequest = []byte{0xFF, 0xFF, 0xFF, 0xFF, 0x57}

type querier struct{ steam.Module }

// Query asks for the server's info, then (as configured) its players and rules.
// The players and rules are asked for in a function of their own: a probe waiting
// for the info reply holds only this lean frame (collector's runner says why).
//
// Not a protocols.UDPExchange: a challenge, then the players and rules, each its own request.
func (q *querier) Query(ctx context.Context, t protocols.Target, tr *wire.Trace) (*protocols.Result, error) {
	var x exchanger
	if err := x.Open(ctx, t, tr, &q.Module); err != nil {
		return nil, err
	}
	defer x.Conn.Close()

	var in steam.Info
	if err := x.info(ctx, &in); err != nil {
		return nil, err
	}
	return q.more(ctx, &x, &in), nil
}

// more builds the result of the info reply and asks for the players and rules.
//
//go:noinline
func (q *querier) more(ctx context.Context, x *exchanger, in *steam.Info) *protocols.Result {
	tr := x.Tr
	if q.Text != nil {
		in.Recode(q.Text)
	}
	res := in.Result()
	if q.Players {
		if pl, ok := protocols.Phase(&res.PhaseErrors, tr, "players", func() (*steam.Players, error) {
			msg, err := x.Fetch(ctx, x.withLegacy(steam.PlayersRequest), steam.TypePlayers, false)
			if err != nil {
				return nil, err
			}
			return steam.DecodePlayers(msg, in.FullAppID() == steam.AppIDTheShip)
		}); ok {
			if q.Text != nil {
				pl.Recode(q.Text)
			}
			res.PlayerList = pl.Result(in.FullAppID())
		}
	}
	if q.Rules {
		if rl, ok := protocols.Phase(&res.PhaseErrors, tr, "rules", func() (*steam.Rules, error) {
			msg, err := x.Fetch(ctx, x.withLegacy(steam.RulesRequest), steam.TypeRules, false)
			if err != nil {
				return nil, err
			}
			return steam.DecodeRules(msg)
		}); ok {
			// The app id of the info reply picks the game's reading of the rules
			// (Arma 3 and DayZ hide their mod list in them).
			var merr error
			res.Rules, res.Mods, merr = rulesFor(rl, in.FullAppID())
			if merr != nil {
				tr.Logf("rules: mod list not read: %v", merr)
			}
			applyGameRules(res, in.FullAppID(), res.Rules)
		}
	}
	return res
}

// exchanger adds the A2S query strategy to the shared exchange.
type exchanger struct {
	steam.Exchanger
	// legacy is the challenge that came after A2S_SERVERQUERY_GETCHALLENGE was
	// sent (hasLegacy); players and rules then carry it instead of -1.
	legacy    [4]byte
	hasLegacy bool
}

// withLegacy returns base (a request with challenge -1) with the legacy challenge
// in place of -1 when the server handed one out.
func (x *exchanger) withLegacy(base []byte) []byte {
	if !x.hasLegacy {
		return base
	}
	return steam.WithChallenge(base[:5], x.legacy[:])
}

// isInfoReply accepts what may answer A2S_INFO (or A2S_SERVERQUERY_GETCHALLENGE).
func isInfoReply(msg []byte) bool {
	switch msg[4] {
	case steam.TypeInfo, steam.TypeInfoDetailed, steam.TypeChallenge:
		return true
	}
	return false
}

// info runs A2S_INFO, following S2C_CHALLENGE answers (spec §3.3). The first
// challenge round trip is timed as the "challenge" phase. A challenge the target
// accepted on an earlier probe goes out with the first request (spec §3 rule 6):
// a server that still takes it answers at once, with no challenge phase, one that
// does not answers S2C_CHALLENGE as it would to -1. A server silent for half the
// time left (or answering with nothing usable, or dropping a stale challenge) is
// asked for a challenge the old way, A2S_SERVERQUERY_GETCHALLENGE, with one more
// plain A2S_INFO beside it: both answers are taken until the deadline.
//
// The loop is lean and its steps are functions of their own: a probe waiting for
// its server holds this frame (collector's runner says why).
func (x *exchanger) info(ctx context.Context, in *steam.Info) error {
	var r infoRound
	x.beginInfo(ctx, &r)
	for {
		msg, err := x.Request(r.sctx, r.req, isInfoReply, false)
		more, err := x.nextInfo(ctx, &r, msg, err)
		if more {
			continue
		}
		return x.endInfo(ctx, &r, msg, err, in)
	}
}

// infoRound is the state of info's exchange.
type infoRound struct {
	pc, pi wire.PhaseStart
	sctx   context.Context // the first stage's, then the whole probe's
	req    []byte          // the request to send next
	hit    []byte          // the cached request the probe began with
	asked  bool            // A2S_SERVERQUERY_GETCHALLENGE was sent
	i      int             // the challenge round
}

//go:noinline
func (x *exchanger) beginInfo(ctx context.Context, r *infoRound) {
	r.pc, r.pi = x.Tr.Begin("challenge"), x.Tr.Begin("info")
	r.sctx = firstStage(ctx)
	r.req, r.i = steam.InfoRequest, 1
	if e, ok := x.CachedInfo(); ok {
		r.req, r.hit = e.Req, e.Req
		x.legacy, x.hasLegacy = e.Challenge(), e.Legacy
	}
}

// nextInfo reports whether the exchange goes on: after silence in the first stage
// (A2S_SERVERQUERY_GETCHALLENGE), or after a challenge. Otherwise it returns the
// exchange's error, if any.
//
//go:noinline
func (x *exchanger) nextInfo(ctx context.Context, r *infoRound, msg []byte, err error) (bool, error) {
	if !r.asked && r.sctx != ctx && errors.Is(err, wire.ErrTimeout) && ctx.Err() == nil {
		x.Tr.Log("no answer to A2S_INFO: asking for a challenge with A2S_SERVERQUERY_GETCHALLENGE (0x57)")
		if err = x.Conn.Send(steam.InfoRequest); err == nil {
			r.sctx, r.req, r.asked = ctx, getChallengeRequest, true
			x.hasLegacy = false // a cached challenge met silence: the plain request above replaces it
			return true, nil    // no challenge came: this round does not count
		}
	}
	if err != nil || msg[4] != steam.TypeChallenge {
		return false, err
	}
	ch, err := steam.DecodeChallenge(msg)
	if err != nil {
		return false, err
	}
	if r.i >= steam.MaxChallenges {
		return false, fmt.Errorf("%w: A2S_INFO answered with S2C_CHALLENGE %d times", wire.ErrChallenge, r.i)
	}
	if r.i == 1 {
		x.Tr.End(r.pc, nil)
		r.pi = x.Tr.Begin("info")
	}
	if r.asked && !x.hasLegacy {
		x.legacy, x.hasLegacy = [4]byte(ch), true
	}
	r.req = steam.WithChallenge(steam.InfoRequest, ch)
	r.i++
	return true, nil
}

// endInfo decodes the reply that ended the exchange (err nil), and remembers
// whether the challenge it carried was taken.
//
//go:noinline
func (x *exchanger) endInfo(ctx context.Context, r *infoRound, msg []byte, err error, in *steam.Info) error {
	if err == nil {
		err = x.decodeInfo(ctx, msg, in)
	}
	var legacy *[4]byte
	if x.hasLegacy {
		legacy = &x.legacy
	}
	x.Remember(err == nil, r.hit, r.req, legacy)
	x.Tr.End(r.pi, err)
	return err
}

// firstStage bounds the first A2S_INFO exchange to half the time left, leaving the
// rest to the A2S_SERVERQUERY_GETCHALLENGE fallback. Without a deadline there is no
// half to take: ctx itself is returned, and no fallback runs.
func firstStage(ctx context.Context) context.Context {
	dl, ok := ctx.Deadline()
	if !ok {
		return ctx
	}
	now := time.Now()
	return stageCtx{ctx, now.Add(dl.Sub(now) / 2)}
}

// stageCtx is ctx with an earlier deadline, for code that reads the deadline (the
// sockets) and Err, and nothing else: context.WithDeadline would cost a timer and
// five allocations on every probe (BenchmarkProbe 47 -> 41 allocs/op), to close a
// Done channel that no one in the exchange selects on. Cancellation of the parent
// still shows in Err.
type stageCtx struct {
	context.Context
	dl time.Time
}

func (c stageCtx) Deadline() (time.Time, bool) { return c.dl, true }

func (c stageCtx) Err() error {
	if err := c.Context.Err(); err != nil {
		return err
	}
	if !time.Now().Before(c.dl) {
		return context.DeadlineExceeded
	}
	return nil
}

// decodeInfo decodes an info reply, preferring the 0x49 that may follow a 0x6D.
func (x *exchanger) decodeInfo(ctx context.Context, msg []byte, in *steam.Info) error {
	if msg[4] == steam.TypeInfoDetailed {
		if src := x.SourceAfterDetailed(ctx); src != nil {
			if in.Decode(src) == nil {
				return nil
			}
			*in = steam.Info{}
		}
	}
	return in.Decode(msg)
}
