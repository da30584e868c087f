package quake3

import (
	"context"
	"crypto/rand"
	"errors"
	"net/netip"

	"github.com/gameserver-exporter/gameserver_exporter/protocols"
	"github.com/gameserver-exporter/gameserver_exporter/protocols/internal/idtech"
	"github.com/gameserver-exporter/gameserver_exporter/protocols/wire"
)

type querier struct {
	players, rules bool
	retries        int
	text           func([]byte) string // the module's code page (wire.Latin1 by default)
	// status is decodeStatus with text, made once in newQuerier: a probe
	// makes no closure for it.
	status func([]byte) (*reply, error)
}

// Query sends one getstatus and decodes the single datagram it gets back: the
// player list and the server's cvars come in the same reply, so there is no
// separate players or rules phase.
func (q *querier) Query(ctx context.Context, t protocols.Target, tr *wire.Trace) (*protocols.Result, error) {
	addr := t.Addr
	// 26 base32 characters: no backslash, quote or space, well under the
	// server's 128-character limit.
	challenge := rand.Text()
	x := protocols.UDPExchange[*reply]{
		Request: idtech.Q3Request("getstatus", challenge, "\n"), Retries: q.retries, Decode: q.status, NotReply: errNotReply,
		Check: func(r *reply) error {
			// Servers that drop the echo send no challenge key (or, like Warsow, an
			// empty one): accept those. A different token is a stray or spoofed reply.
			c, ok := r.Lookup("challenge")
			return idtech.Echoed(c, ok && c != "", challenge)
		},
	}
	r, err := x.Ask(ctx, t, tr)
	if err != nil {
		return nil, err
	}
	if r.Unparsed > 0 || r.Dropped > 0 {
		tr.Logf("player lines: %d parsed, %d without a quoted name, %d past the cap of %d",
			len(r.Players), r.Unparsed, r.Dropped, idtech.MaxPlayerLines)
	}
	res := r.result(q.players, q.rules)
	if !res.Bots.Known && r.pingZero() > 0 {
		q.countBots(ctx, addr, tr, r, res)
	}
	return res, nil
}

// countBots asks getinfo for the bot count ioquake3's getstatus lacks: its
// infoResponse says `clients` and `g_humanplayers` (ioq3 1.36+, OpenArena
// 0.8.8), the bots are the difference, and Players becomes the status lines
// less them. It is sent only when the status has ping-0 lines (bots have ping
// 0) and no bot key, as the "players" phase, with half the time left: a server
// that ignores it (another engine; ioq3's limit of about one query a second
// per address) still leaves the probe its status, with players and bots
// unknown (a failed players phase). A getinfo without g_humanplayers (older
// engines, other games) leaves every line a player.
func (q *querier) countBots(ctx context.Context, addr netip.AddrPort, tr *wire.Trace, st *reply, res *protocols.Result) {
	ctx, cancel := protocols.Share(ctx, 2)
	defer cancel()
	challenge := rand.Text()
	conn, err := wire.DialUDP(ctx, addr, tr)
	if err != nil {
		tr.Logf("getinfo for the bot count: %v", err)
		return
	}
	defer conn.Close()
	conn.Retries = q.retries
	p := tr.Begin("players") // not a protocols.Phase: its failure leaves counts unknown, no phase error
	info, err := wire.Exchange(ctx, conn, idtech.Q3Request("getinfo", challenge, "\n"), func(b []byte) (*reply, error, error) {
		r, err := decodeInfo(b, q.text)
		switch {
		case errors.Is(err, errNotReply):
			return nil, err, nil
		case err != nil:
			return nil, nil, err
		}
		c, ok := r.Lookup("challenge")
		if err := idtech.Echoed(c, ok && c != "", challenge); err != nil {
			return nil, err, nil
		}
		return r, nil, nil
	})
	tr.End(p, err)
	if err != nil {
		// Some of the lines may be bots: no count rather than one that flips
		// between humans and clients as getinfo replies get lost.
		tr.Logf("getinfo for the bot count: %v; players and bots unknown", err)
		res.Players = protocols.Count{}
		return
	}
	bots := info.result(false, false).Bots
	if !bots.Known {
		tr.Logf("getinfo counts no bots (no g_humanplayers): bots unknown")
		return
	}
	res.Bots = bots
	res.Players = idtech.Humans(protocols.Known(int64(len(st.Players))), bots)
	// The ping-0 lines are the bots when they number as many.
	if int64(st.pingZero()) == bots.Value {
		for i := range res.PlayerList {
			if v, ok := st.Players[i].Ping(); ok && v == 0 {
				res.PlayerList[i].Bot = true
			}
		}
	}
}
