package unreal2

import (
	"context"
	"errors"
	"fmt"
	"hash/maphash"
	"time"

	"github.com/gameserver-exporter/gameserver_exporter/protocols"
	"github.com/gameserver-exporter/gameserver_exporter/protocols/wire"
)

// Bounds on the datagrams one rules or players phase reads.
const (
	maxDatagrams = 64 // replies taken (a full UT2004 server needs a handful)
	maxStray     = 32 // datagrams skipped: other types, duplicates, junk
)

// The quiet period that ends a list: a tenth of the time left, within these bounds.
// A server sends all datagrams of a reply at once, so a gap of this size means the
// reply is over, and the tenth leaves time for the next phase.
const (
	minQuiet = 20 * time.Millisecond
	maxQuiet = 300 * time.Millisecond
)

type querier struct {
	s protocols.Settings
}

// query asks for the server info, then, as the module wants them, the players and
// the rules, each a request of its own on the same socket. A failed players or
// rules phase leaves a phase error and what it decoded.
func (q *querier) query(ctx context.Context, conn *wire.UDPConn, tr *wire.Trace) (*protocols.Result, error) {
	p := tr.Begin("info")
	in, err := wire.Exchange(ctx, conn, request(typeInfo), func(b []byte) (*info, error, error) {
		v, body, skip := splitReply(b, typeInfo)
		if skip != nil {
			return nil, skip, nil
		}
		in, err := decodeInfo(v, body)
		return in, nil, err
	})
	tr.End(p, err)
	if err != nil {
		return nil, err
	}
	if in.trailing > 0 {
		tr.Logf("%d bytes after the info fields not decoded", in.trailing)
	}
	st := &status{in: in}
	res := st.result()

	if q.s.Players {
		pctx := ctx
		if q.s.Rules {
			// A server silent to the players request must leave the rules their turn.
			var cancel context.CancelFunc
			pctx, cancel = protocols.Share(ctx, 2)
			defer cancel()
		}
		q.players(pctx, conn, tr, st, res)
	}
	if q.s.Rules {
		kv, ok := protocols.Phase(&res.PhaseErrors, tr, "rules", func() ([]protocols.KV, error) {
			var kv []protocols.KV
			err := collect(ctx, conn, tr, typeRules, func(_ uint32, body []byte) (bool, error) {
				var err error
				kv, err = decodeRules(kv, body)
				return len(kv) >= maxRulePairs, err
			})
			return kv, err
		})
		res.Rules = kv // what arrived, even on failure
		addRules(res, kv, ok)
	}
	return res, nil
}

// players reads the player list until it holds the info reply's player count or
// the server falls quiet; a complete list splits that count into humans and bots
// (splitBots). Fewer records than that count is no error: UT2003 often
// lists only some players (qstat's info/UT2003.txt). A server with no players is
// not asked.
func (q *querier) players(ctx context.Context, conn *wire.UDPConn, tr *wire.Trace, st *status, res *protocols.Result) {
	want := int(st.in.numPlayers)
	if want <= 0 {
		tr.Logf("the info reply counts %d players: no player request", want)
		res.PlayerList = []protocols.Player{}
		return
	}
	listed := 0 // records that are players, not score lines
	ps, ok := protocols.Phase(&res.PhaseErrors, tr, "players", func() ([]player, error) {
		var ps []player
		err := collect(ctx, conn, tr, typePlayers, func(v uint32, body []byte) (bool, error) {
			n := len(ps)
			var err error
			ps, err = decodePlayers(ps, v, body)
			for _, p := range ps[n:] {
				if !isScoreLine(p, v) {
					listed++
				}
			}
			return listed >= want || len(ps) >= maxPlayerEntries, err
		})
		return ps, err
	})
	if listed < want {
		tr.Logf("%d of the %d players listed", listed, want)
	}
	st.addPlayers(res, ps) // what arrived, even on failure
	if !ok {
		return
	}
	splitBots(res, want, len(res.PlayerList))
}

// collect sends the request of one list type and hands each reply datagram's
// version and body to take until take says it has all, the server has been quiet
// for the quiet period, or the probe's deadline passes. Only the first reply is
// awaited with re-sends (conn.Retries); a missing first reply is the phase's error,
// else the first error take reported (a datagram it could not decode whole; the
// list keeps what it could). Datagrams of another type and exact duplicates (the
// answer to a re-sent request) are skipped.
func collect(ctx context.Context, conn *wire.UDPConn, tr *wire.Trace, kind byte, take func(version uint32, body []byte) (done bool, err error)) error {
	var skipped error
	b, err := conn.Request(ctx, request(kind), func(b []byte) bool {
		_, _, skipped = splitReply(b, kind)
		return skipped == nil
	})
	if err != nil {
		if errors.Is(err, wire.ErrTimeout) && skipped != nil {
			err = fmt.Errorf("no usable reply before the deadline, last one skipped: %w", skipped)
		}
		return err
	}
	deadline, hasDeadline := ctx.Deadline()
	quiet := maxQuiet
	if hasDeadline {
		quiet = min(max(time.Until(deadline)/10, minQuiet), maxQuiet)
	}
	seed := maphash.MakeSeed()
	seen := map[uint64]bool{maphash.Bytes(seed, b): true}
	var decErr error // take's first
	for taken, stray := 0, 0; ; {
		v, body, _ := splitReply(b, kind)
		done, terr := take(v, body)
		if decErr == nil {
			decErr = terr
		}
		if done {
			return decErr
		}
		if taken++; taken >= maxDatagrams {
			return fmt.Errorf("%w: more than %d reply datagrams", wire.ErrTooLarge, maxDatagrams)
		}
		for {
			until := time.Now().Add(quiet)
			if hasDeadline && deadline.Before(until) {
				until = deadline
			}
			conn.SetReadDeadline(until)
			if b, err = conn.Recv(); err != nil {
				if errors.Is(err, wire.ErrTimeout) {
					return decErr // quiet, or out of time: the list is what came
				}
				return err
			}
			why := ""
			if _, _, err := splitReply(b, kind); err != nil {
				why = err.Error()
			} else if h := maphash.Bytes(seed, b); seen[h] {
				why = "duplicate datagram"
			} else {
				seen[h] = true
				break
			}
			tr.Ignore(why)
			if stray++; stray > maxStray {
				return decErr // a flood of strays ends the list as silence would
			}
		}
	}
}
