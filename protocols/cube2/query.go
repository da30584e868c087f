package cube2

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"slices"
	"time"

	"github.com/gameserver-exporter/gameserver_exporter/protocols"
	"github.com/gameserver-exporter/gameserver_exporter/protocols/wire"
)

type querier struct {
	retries        int
	players, rules bool
}

// Query asks for the server info, then, for the player list and uptime, sends the
// extinfo requests together on the same socket and sorts the replies by their
// echoed prefix. Red Eclipse sends its player names with the info and does not
// answer extinfo, so it gets no second request.
//
// The player list comes as one datagram of client numbers and one per client:
// they are collected in any order, duplicates dropped, and the requests still
// unanswered re-sent within the deadline (Retries). When records are still
// missing at the deadline, the ones that arrived are listed and the players phase
// fails. The list holds bots (client numbers from 128), which the info's player
// count leaves out.
//
// Not a protocols.UDPExchange: the player list is many datagrams, collected in any order.
func (q *querier) Query(ctx context.Context, t protocols.Target, tr *wire.Trace) (*protocols.Result, error) {
	return protocols.OnUDP(ctx, t, tr, q.retries, q.query)
}

func (q *querier) query(ctx context.Context, conn *wire.UDPConn, tr *wire.Trace) (*protocols.Result, error) {
	// A random ping: the echo tells this probe's replies from any other datagram.
	req := infoRequest(rand.Int32N(1<<30) + 1<<24)
	p := tr.Begin("info")
	var skipped error
	reply, err := conn.Request(ctx, req, func(b []byte) bool {
		if !bytes.HasPrefix(b, req) {
			_, skipped = echo(b, req)
			return false
		}
		return true
	})
	if err != nil {
		if skipped != nil && (errors.Is(err, wire.ErrTimeout) || errors.Is(err, wire.ErrMalformed)) {
			err = fmt.Errorf("no info reply, last datagram skipped: %w", skipped)
		}
		tr.End(p, err)
		return nil, err
	}
	in, err := decodeInfo(reply, req)
	tr.End(p, err)
	if err != nil {
		return nil, err
	}
	if in.Trailing > 0 {
		tr.Logf("ignored %d bytes after the info reply", in.Trailing)
	}
	res := in.Result(q.players, q.rules)
	if in.Layout == layoutRedEclipse {
		return res, nil
	}
	if q.players || q.rules {
		x := extinfo{conn: conn, tr: tr, retries: q.retries, wantPlayers: q.players, wantUptime: q.rules}
		x.run(ctx)
		x.fill(res)
	}
	return res, nil
}

// maxExtDatagrams bounds the datagrams one extinfo exchange reads: a full server
// answers each request with up to maxPlayers+1 of them, and retries repeat them.
const maxExtDatagrams = 1024

// extinfo collects the answers to playersRequest and uptimeRequest: one datagram
// with the client numbers and one per client, in any order, possibly duplicated.
type extinfo struct {
	conn                    *wire.UDPConn
	tr                      *wire.Trace
	retries                 int
	wantPlayers, wantUptime bool

	ids     []int32 // client numbers, in the server's order
	haveIDs bool
	stats   map[int32]playerStats
	uptime  int32
	version int32

	playersDone, uptimeDone bool
	playersErr, uptimeErr   error
	pp, pr                  wire.PhaseStart
}

func (x *extinfo) complete() bool {
	if !x.haveIDs {
		return false
	}
	for _, id := range x.ids {
		if _, ok := x.stats[id]; !ok {
			return false
		}
	}
	return true
}

func (x *extinfo) endPlayers(err error) {
	x.playersDone, x.playersErr = true, err
	x.tr.End(x.pp, err)
}

func (x *extinfo) endUptime(err error) {
	x.uptimeDone, x.uptimeErr = true, err
	x.tr.End(x.pr, err)
}

// run collects the extinfo replies. Not protocols.Phase calls: its players and
// rules phases run at once, on one socket.
func (x *extinfo) run(ctx context.Context) {
	x.stats = make(map[int32]playerStats)
	x.playersDone, x.uptimeDone = !x.wantPlayers, !x.wantUptime
	if x.wantPlayers {
		x.pp = x.tr.Begin("players")
	}
	if x.wantUptime {
		x.pr = x.tr.Begin("rules")
	}
	preq, ureq := playersRequest(), uptimeRequest()
	deadline, hasDeadline := ctx.Deadline()
	read := 0
	for attempt := 0; !x.playersDone || !x.uptimeDone; attempt++ {
		if err := x.send(preq, ureq); err != nil {
			x.fail(err)
			return
		}
		left := x.retries - attempt
		if hasDeadline {
			slot := deadline
			if left > 0 {
				slot = time.Now().Add(time.Until(deadline) / time.Duration(left+1))
			}
			x.conn.SetReadDeadline(slot)
		}
		for !x.playersDone || !x.uptimeDone {
			b, err := x.conn.Recv()
			if err != nil {
				if errors.Is(err, wire.ErrTimeout) && left > 0 && ctx.Err() == nil {
					break // re-send what is still unanswered
				}
				x.fail(err)
				return
			}
			if read++; read > maxExtDatagrams {
				x.fail(fmt.Errorf("%w: more than %d extinfo datagrams", wire.ErrTooLarge, maxExtDatagrams))
				return
			}
			x.handle(b, preq, ureq)
		}
	}
}

func (x *extinfo) send(preq, ureq []byte) error {
	if !x.playersDone {
		if err := x.conn.Send(preq); err != nil {
			return err
		}
	}
	if !x.uptimeDone {
		return x.conn.Send(ureq)
	}
	return nil
}

func (x *extinfo) handle(b, preq, ureq []byte) {
	switch {
	case bytes.HasPrefix(b, ureq):
		if x.uptimeDone {
			x.tr.Ignore("duplicate uptime reply")
			return
		}
		v, up, err := decodeUptime(b)
		x.version, x.uptime = v, up
		x.endUptime(err)
	case bytes.HasPrefix(b, preq):
		if x.playersDone {
			x.tr.Ignore("late player stats")
			return
		}
		rep, err := decodePlayers(b)
		if err != nil {
			x.endPlayers(err)
			return
		}
		x.version = rep.Version
		if rep.IsIDs {
			x.ids, x.haveIDs = dedupe(rep.IDs), true
		} else if _, dup := x.stats[rep.Player.CN]; dup || len(x.stats) < maxPlayers {
			x.stats[rep.Player.CN] = rep.Player
		}
		if x.complete() {
			x.endPlayers(nil)
		}
	default:
		x.tr.Ignore("not an extinfo reply")
	}
}

// fail ends every phase still open with err.
func (x *extinfo) fail(err error) {
	if !x.playersDone {
		if len(x.stats) > 0 || x.haveIDs {
			err = fmt.Errorf("%d of %s player records: %w", len(x.stats), x.expected(), err)
		}
		x.endPlayers(err)
	}
	if !x.uptimeDone {
		x.endUptime(err)
	}
}

func (x *extinfo) expected() string {
	if !x.haveIDs {
		return "? (client list lost)"
	}
	return fmt.Sprint(len(x.ids))
}

// fill adds the player list (what arrived, in the server's order, even when some
// records are missing), the bot count and the uptime to res.
func (x *extinfo) fill(res *protocols.Result) {
	if x.version != 0 && x.version != extVersion {
		x.tr.Logf("extinfo version %d, decoded as %d", x.version, extVersion)
	}
	if x.wantUptime {
		if x.uptimeErr != nil {
			res.PhaseErrors = append(res.PhaseErrors, protocols.PhaseError{Phase: "rules", Err: x.uptimeErr})
		} else {
			res.Rules = append(res.Rules, protocols.KV{Key: "uptime", Value: fmt.Sprint(x.uptime)})
			res.Uptime = protocols.SpanSeconds(float64(x.uptime)) // seconds the server has run
		}
	}
	if !x.wantPlayers {
		return
	}
	if x.playersErr != nil {
		res.PhaseErrors = append(res.PhaseErrors, protocols.PhaseError{Phase: "players", Err: x.playersErr})
	}
	order := x.ids
	if !x.haveIDs {
		order = make([]int32, 0, len(x.stats))
		for cn := range x.stats {
			order = append(order, cn)
		}
		slices.Sort(order)
	}
	if x.playersErr != nil && len(x.stats) == 0 {
		return
	}
	bots := 0
	res.PlayerList = make([]protocols.Player, 0, len(order))
	for _, cn := range order {
		if st, ok := x.stats[cn]; ok {
			res.PlayerList = append(res.PlayerList, st.Player())
			if st.Bot() {
				bots++
			}
		}
	}
	if x.playersErr == nil {
		res.Bots = protocols.Known(int64(bots))
	}
}

func dedupe(ids []int32) []int32 {
	out := ids[:0:0]
	seen := make(map[int32]bool, len(ids))
	for _, id := range ids {
		if !seen[id] {
			seen[id] = true
			out = append(out, id)
		}
	}
	return out
}
