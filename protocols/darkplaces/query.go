package darkplaces

import (
	"context"
	"crypto/rand"
	"time"

	"github.com/gameserver-exporter/gameserver_exporter/protocols"
	"github.com/gameserver-exporter/gameserver_exporter/protocols/internal/idtech"
	"github.com/gameserver-exporter/gameserver_exporter/protocols/wire"
)

// floodGap is more than net_getstatusfloodblockingtimeout (1 s), the time a
// DarkPlaces server ignores further getstatus/getinfo from one IP.
const floodGap = 1100 * time.Millisecond

type querier struct {
	players, rules bool
	retries        int
}

func newQuerier(s protocols.Settings) (protocols.Querier, error) {
	return &querier{players: s.Players, rules: s.Rules, retries: s.Retries}, nil
}

// retriesWithin caps re-sends so that they are at least floodGap apart within
// the time left: an earlier one would be ignored by the flood block anyway.
func retriesWithin(retries int, left time.Duration) int {
	return max(0, min(retries, int(left/floodGap)-1))
}

// Query sends one getstatus and decodes the single datagram it gets back:
// players and cvars come in the same reply, and a second query (getinfo)
// within a second would be ignored, so there is one phase.
func (q *querier) Query(ctx context.Context, t protocols.Target, tr *wire.Trace) (*protocols.Result, error) {
	retries := q.retries
	if dl, ok := ctx.Deadline(); ok {
		retries = retriesWithin(q.retries, time.Until(dl))
	}
	// 26 base32 characters: none of the characters the engine avoids in its
	// own challenges (\ ; " % /), well within its buffers.
	challenge := rand.Text()
	x := protocols.UDPExchange[*reply]{
		Request: idtech.Q3Request("getstatus", challenge, ""), Retries: retries, Decode: decode, NotReply: errNotReply,
		Check: func(r *reply) error {
			// Old engines send no challenge key: accept those. Another token is
			// a stray or spoofed reply.
			c, ok := r.Lookup("challenge")
			return idtech.Echoed(c, ok, challenge)
		},
	}
	r, err := x.Ask(ctx, t, tr)
	if err != nil {
		return nil, err
	}
	if !r.full() {
		tr.Log("the server answered getstatus with an infoResponse: its player list does not fit in one datagram")
	}
	if r.Unparsed > 0 || r.Dropped > 0 {
		tr.Logf("player lines: %d parsed, %d unparsed, %d past the cap of %d",
			len(r.Players), r.Unparsed, r.Dropped, idtech.MaxPlayerLines)
	}
	return r.result(q.players, q.rules), nil
}
