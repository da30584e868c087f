package goldsrc

import (
	"context"
	"errors"
	"fmt"

	"github.com/gameserver-exporter/gameserver_exporter/protocols"
	"github.com/gameserver-exporter/gameserver_exporter/protocols/internal/steam"
	"github.com/gameserver-exporter/gameserver_exporter/protocols/wire"
)

// Requests (goldsrc.md §2, a2s.md §3), built once; nothing writes to them, so the
// trace may keep them by reference.
var (
	detailsRequest    = []byte("\xFF\xFF\xFF\xFFdetails\x00")
	infoRequest       = []byte("\xFF\xFF\xFF\xFFinfo\x00")
	infoStringRequest = []byte("\xFF\xFF\xFF\xFFinfostring\x00")
	playersRequest    = []byte("\xFF\xFF\xFF\xFFplayers\x00")
	rulesRequest      = []byte("\xFF\xFF\xFF\xFFrules\x00")
)

// infoStages is the info query strategy. A2S_INFO goes first: Steam-era HLDS and
// HLTV answer it and ReHLDS no longer answers the text words (spec "status today").
// Each stage but the last gets half of the time left, then the next query is sent;
// every stage accepts an answer to any earlier query too, so a slow server is not
// penalised, and the last stage ends at the probe's deadline: the sequence never
// runs past it.
var infoStages = []struct {
	req  []byte
	text bool
}{
	{steam.InfoRequest, false},
	{detailsRequest, true},
	{infoRequest, true},
	{infoStringRequest, true},
}

// dialect says how the players and rules of a server are asked for.
type dialect uint8

const (
	dialectA2S  dialect = iota // A2S_PLAYER / A2S_RULES with the challenge flow
	dialectText                // the text words "players" / "rules"
	dialectBoth                // unknown (a 0x6D after text words were sent): send both
)

type querier struct{ steam.Module }

// Query asks for the server's info, then (as configured) its players and rules.
//
// Not a protocols.UDPExchange: a challenge, then the players and rules, each its own request.
func (q *querier) Query(ctx context.Context, t protocols.Target, tr *wire.Trace) (*protocols.Result, error) {
	var x exchanger
	if err := x.Open(ctx, t, tr, &q.Module); err != nil {
		return nil, err
	}
	defer x.Conn.Close()

	rep, d, err := x.info(ctx)
	if err != nil {
		return nil, err
	}
	if q.Text != nil {
		rep.recode(q.Text)
		if rep.detailed != nil {
			rep.detailed.Recode(q.Text)
		}
	}
	res := rep.result()
	if rep.detailed != nil {
		withDetailed(res, rep.detailed)
	}
	if q.Players {
		if pl, ok := protocols.Phase(&res.PhaseErrors, tr, "players", func() ([]protocols.Player, error) {
			if rep.hltvEmpty() {
				tr.Log("HLTV proxy with no spectators: it sends no players reply, none awaited")
				return []protocols.Player{}, nil
			}
			msg, err := x.fetch(ctx, d, playersRequest, steam.PlayersRequest, steam.TypePlayers)
			if err != nil {
				return nil, err
			}
			return decodePlayers(msg, q.Text)
		}); ok {
			res.PlayerList = pl
		}
	}
	if q.Rules {
		if rl, ok := protocols.Phase(&res.PhaseErrors, tr, "rules", func() ([]protocols.KV, error) {
			msg, err := x.fetch(ctx, d, rulesRequest, steam.RulesRequest, steam.TypeRules)
			if err != nil {
				return nil, err
			}
			return decodeRules(msg)
		}); ok {
			res.Rules = rl
		}
	}
	return res, nil
}

// exchanger adds the GoldSrc query strategy to the shared exchange.
type exchanger struct{ steam.Exchanger }

// infoReply is the answer to the info phase, plus the 0x6D that came with a 0x49.
type infoReply struct {
	reply
	detailed *steam.Info
}

// info runs the info stages (see infoStages), following S2C_CHALLENGE answers to
// A2S_INFO; the first challenge round trip is timed as the "challenge" phase. A
// challenge the target accepted on an earlier probe goes out with the first
// A2S_INFO (see firstInfo).
func (x *exchanger) info(ctx context.Context) (infoReply, dialect, error) {
	pc, pi := x.Tr.Begin("challenge"), x.Tr.Begin("info")
	challenged, textSent := false, false
	var (
		msg []byte
		err error
		// a2sReq is the last A2S_INFO sent: what an A2S answer in the first stage
		// replies to; hit is the cached request the probe began with (nil if none).
		a2sReq, hit []byte
	)
	if e, ok := x.CachedInfo(); ok {
		hit = e.Req
	}
	for i, st := range infoStages {
		sctx, cancel := protocols.Share(ctx, min(2, len(infoStages)-i)) // the last stage: all the time left
		textSent = textSent || st.text
		if i == 0 {
			msg, a2sReq, err = x.firstInfo(sctx, hit)
		} else {
			msg, err = x.Request(sctx, st.req, isInfoReply, false)
		}
		for n := 1; err == nil && msg[4] == steam.TypeChallenge; n++ {
			var ch []byte
			if ch, err = steam.DecodeChallenge(msg); err != nil {
				break
			}
			if n > steam.MaxChallenges {
				err = fmt.Errorf("%w: A2S_INFO answered with S2C_CHALLENGE %d times", wire.ErrChallenge, n)
				break
			}
			if !challenged {
				challenged = true
				x.Tr.End(pc, nil)
				pi = x.Tr.Begin("info")
			}
			a2sReq = steam.WithChallenge(steam.InfoRequest, ch)
			msg, err = x.Request(sctx, a2sReq, isInfoReply, false)
		}
		cancel()
		// Only silence moves on to the next query; a refusal or a bad reply ends here.
		if err == nil || !errors.Is(err, wire.ErrTimeout) || ctx.Err() != nil {
			break
		}
		x.Tr.Logf("no answer to query %d of %d, trying the next one", i+1, len(infoStages))
	}
	var rep infoReply
	if err == nil {
		rep, err = x.decodeInfo(ctx, msg)
	}
	// Only an answer in the first stage (no text query sent) answers an A2S_INFO.
	x.Remember(err == nil && !textSent, hit, a2sReq, nil)
	x.Tr.End(pi, err)
	if err != nil {
		return infoReply{}, 0, err
	}
	d := dialectBoth
	switch {
	case rep.a2s == nil:
		d = dialectText // 'C' or infostring answer text words only
	case rep.a2s.Type == steam.TypeInfo || !textSent:
		d = dialectA2S
	}
	return rep, d, nil
}

// firstInfo sends the first stage's A2S_INFO and returns the first answer with the
// request it was sent for. With a cached challenge (hit) that request goes first,
// for half the stage: a server that still takes it answers at once, one that does
// not answers S2C_CHALLENGE as it would to -1; one silent that long (it drops a
// stale challenge, or it drops the datagram) gets the plain A2S_INFO for the rest
// of the stage, so the text queries still go out when they would without the cache.
func (x *exchanger) firstInfo(ctx context.Context, hit []byte) (msg, req []byte, err error) {
	if hit != nil {
		_, bounded := ctx.Deadline() // without a deadline there is no half to take
		hctx, cancel := protocols.Share(ctx, 2)
		msg, err = x.Request(hctx, hit, isInfoReply, false)
		cancel()
		if !bounded || !errors.Is(err, wire.ErrTimeout) || ctx.Err() != nil {
			return msg, hit, err
		}
		x.Tr.Log("no answer to the cached challenge: sending A2S_INFO without it")
	}
	msg, err = x.Request(ctx, steam.InfoRequest, isInfoReply, false)
	return msg, steam.InfoRequest, err
}

// decodeInfo decodes an info reply; after a 0x6D it waits briefly for the 0x49 that
// some HLDS builds send behind it, which then wins (it carries the version) as in
// package a2s, the 0x6D's mod block staying in Info.
func (x *exchanger) decodeInfo(ctx context.Context, msg []byte) (infoReply, error) {
	r, err := decodeReply(msg)
	if msg[4] != steam.TypeInfoDetailed {
		return infoReply{reply: r}, err
	}
	if src := x.SourceAfterDetailed(ctx); src != nil {
		if in, serr := steam.DecodeInfo(src); serr == nil {
			return infoReply{reply: reply{a2s: in}, detailed: r.a2s}, nil // detailed nil if the 0x6D was bad
		}
	}
	return infoReply{reply: r}, err
}

// fetch asks for players or rules in the server's dialect. The A2S request carries
// challenge -1 and follows S2C_CHALLENGE answers; a server that answers at once is
// accepted too. With dialectBoth the text word is sent once first, then the A2S
// request, which is the one re-sent on retries, and the first answer wins.
func (x *exchanger) fetch(ctx context.Context, d dialect, word, base []byte, want byte) ([]byte, error) {
	// Only the players phase accepts an empty datagram (HLTV with nobody on it).
	empty := want == steam.TypePlayers
	if d == dialectText {
		return x.Request(ctx, word, func(msg []byte) bool { return len(msg) >= 5 && msg[4] == want }, empty)
	}
	if d == dialectBoth {
		if err := x.Conn.Send(word); err != nil {
			return nil, err
		}
	}
	return x.Fetch(ctx, base, want, empty)
}
