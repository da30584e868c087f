package a2s

import (
	"context"
	"errors"
	"fmt"
	"net/netip"
	"time"

	"github.com/gameserver-exporter/gameserver_exporter/protocols"
	"github.com/gameserver-exporter/gameserver_exporter/protocols/wire"
)

// Requests (spec §3), built once. The trace keeps sent packets by reference, which
// is safe because nothing ever writes to them.
var (
	infoRequest    = []byte("\xFF\xFF\xFF\xFFTSource Engine Query\x00")
	playersRequest = []byte{0xFF, 0xFF, 0xFF, 0xFF, 0x55, 0xFF, 0xFF, 0xFF, 0xFF} // challenge -1 asks for one
	rulesRequest   = []byte{0xFF, 0xFF, 0xFF, 0xFF, 0x56, 0xFF, 0xFF, 0xFF, 0xFF}
)

const (
	// maxChallenges bounds the S2C_CHALLENGE answers one request may get before the
	// query gives up (gamedig: 3, python-a2s: 5).
	maxChallenges = 5
	// maxIgnored bounds the datagrams skipped while a split reply is being collected.
	maxIgnored = 32
	// detailedGrace is how long to wait, after a GoldSrc 0x6D reply, for the 0x49 some
	// HLDS builds send right behind it for the same request (spec §5).
	detailedGrace = 50 * time.Millisecond
)

type querier struct {
	players, rules bool
	retries        int
}

// Query asks for the server's info, then (as configured) its players and rules.
func (q *querier) Query(ctx context.Context, addr netip.AddrPort, tr *wire.Trace) (*protocols.Result, error) {
	conn, err := wire.DialUDP(ctx, addr, tr)
	if err != nil {
		return nil, err
	}
	defer conn.Close()
	x := exchanger{conn: conn, tr: tr, retries: q.retries}

	var in Info
	if err := x.info(ctx, &in); err != nil {
		return nil, err
	}
	res := in.Result()
	if q.players {
		p := tr.Begin("players")
		msg, err := x.fetch(ctx, playersRequest, TypePlayers)
		var pl *Players
		if err == nil {
			pl, err = DecodePlayers(msg, in.FullAppID() == AppIDTheShip)
		}
		tr.End(p, err)
		if err != nil {
			res.PhaseErrors = append(res.PhaseErrors, protocols.PhaseError{Phase: "players", Err: err})
		} else {
			res.PlayerList = pl.Result()
		}
	}
	if q.rules {
		p := tr.Begin("rules")
		msg, err := x.fetch(ctx, rulesRequest, TypeRules)
		var rl *Rules
		if err == nil {
			rl, err = DecodeRules(msg)
		}
		tr.End(p, err)
		if err != nil {
			res.PhaseErrors = append(res.PhaseErrors, protocols.PhaseError{Phase: "rules", Err: err})
		} else {
			// The app id of the info reply picks the game's reading of the rules
			// (Arma 3 and DayZ hide their mod list in them).
			var merr error
			res.Rules, res.Mods, merr = rl.ResultFor(in.FullAppID())
			if merr != nil {
				tr.Logf("rules: mod list not read: %v", merr)
			}
		}
	}
	return res, nil
}

// exchanger runs request/reply exchanges on one socket, reassembling split replies.
type exchanger struct {
	conn    *wire.UDPConn
	tr      *wire.Trace
	retries int
	asm     Assembler
}

// info runs A2S_INFO, following S2C_CHALLENGE answers (spec §3.3). The first
// challenge round trip is timed as the "challenge" phase.
func (x *exchanger) info(ctx context.Context, in *Info) error {
	pc, pi := x.tr.Begin("challenge"), x.tr.Begin("info")
	req := infoRequest
	for i := 1; ; i++ {
		msg, err := x.exchange(ctx, req, TypeInfo, TypeInfoDetailed)
		if err == nil && msg[4] == TypeChallenge {
			var ch []byte
			if ch, err = decodeChallenge(msg); err == nil && i < maxChallenges {
				if i == 1 {
					x.tr.End(pc, nil)
					pi = x.tr.Begin("info")
				}
				req = withChallenge(infoRequest, ch)
				continue
			}
			if err == nil {
				err = fmt.Errorf("%w: A2S_INFO answered with S2C_CHALLENGE %d times", protocols.ErrChallenge, i)
			}
		}
		if err == nil {
			err = x.decodeInfo(ctx, msg, in)
		}
		x.tr.End(pi, err)
		return err
	}
}

// decodeInfo decodes an info reply, preferring the 0x49 that may follow a 0x6D.
func (x *exchanger) decodeInfo(ctx context.Context, msg []byte, in *Info) error {
	if msg[4] == TypeInfoDetailed {
		if src := x.sourceAfterDetailed(ctx); src != nil {
			if decodeInfo(src, in) == nil {
				return nil
			}
			*in = Info{}
		}
	}
	return decodeInfo(msg, in)
}

// sourceAfterDetailed waits briefly for a 0x49 behind a 0x6D; nil when none comes.
func (x *exchanger) sourceAfterDetailed(ctx context.Context) []byte {
	until := time.Now().Add(detailedGrace)
	dl, hasDL := ctx.Deadline()
	if hasDL && dl.Before(until) {
		until = dl
	}
	x.conn.SetReadDeadline(until)
	defer func() {
		if hasDL {
			x.conn.SetReadDeadline(dl)
		} else {
			x.conn.SetReadDeadline(time.Time{})
		}
	}()
	for range maxIgnored {
		d, err := x.conn.Recv()
		if err != nil {
			return nil
		}
		if len(d) >= 5 && isSingle(d) && d[4] == TypeInfo {
			return d
		}
		x.tr.Ignore("not the awaited reply")
	}
	return nil
}

// fetch runs A2S_PLAYER or A2S_RULES: the first request carries challenge -1, and
// any S2C_CHALLENGE answer is followed (spec §3.2, §3.4). A server that skips the
// challenge and answers at once is accepted too.
func (x *exchanger) fetch(ctx context.Context, base []byte, want byte) ([]byte, error) {
	req := base
	for range maxChallenges {
		msg, err := x.exchange(ctx, req, want, want)
		if err != nil {
			return nil, err
		}
		if msg[4] != TypeChallenge {
			return msg, nil
		}
		ch, err := decodeChallenge(msg)
		if err != nil {
			return nil, err
		}
		req = withChallenge(base[:5], ch)
	}
	return nil, fmt.Errorf("%w: request 0x%02x answered with S2C_CHALLENGE %d times", protocols.ErrChallenge, base[4], maxChallenges)
}

func withChallenge(base, ch []byte) []byte {
	out := make([]byte, len(base)+4)
	copy(out, base)
	copy(out[len(base):], ch)
	return out
}

type verdict uint8

const (
	ignore  verdict = iota // not an answer to this request
	partial                // a fragment of a split reply was stored
	done                   // a complete reply (or challenge) is in msg
	failed                 // a split reply that cannot be reassembled
)

// feed classifies one datagram received while waiting for a reply of type want or
// alt, or a challenge. Replies of other types (a late 0x49 while waiting for 0x44,
// the second half of a double info reply) are ignored (spec §3).
func (x *exchanger) feed(d []byte, want, alt byte) ([]byte, verdict, error) {
	if len(d) < 5 || d[1] != 0xFF || d[2] != 0xFF || d[3] != 0xFF || (d[0] != 0xFF && d[0] != 0xFE) {
		return nil, ignore, nil
	}
	msg, complete, err := x.asm.Add(d)
	switch {
	case err != nil:
		return nil, failed, err
	case !complete:
		return nil, partial, nil
	case len(msg) >= 5 && (msg[4] == want || msg[4] == alt || msg[4] == TypeChallenge):
		return msg, done, nil
	}
	return nil, ignore, nil
}

// exchange sends req and returns the first complete reply of type want or alt, or
// an S2C_CHALLENGE. conn.Request re-sends an unanswered request; once a split reply
// has started, the rest is read here, and a set still incomplete when the attempt's
// time is up is re-requested while retries last.
func (x *exchanger) exchange(ctx context.Context, req []byte, want, alt byte) ([]byte, error) {
	x.asm.Reset()
	retries := x.retries
	for {
		var (
			msg  []byte
			v    verdict
			ferr error
		)
		x.conn.Retries = retries
		if _, err := x.conn.Request(ctx, req, func(d []byte) bool {
			msg, v, ferr = x.feed(d, want, alt)
			return v != ignore
		}); err != nil {
			return nil, err
		}
		// Duplicates of stored fragments are neither ignored nor progress: count every
		// datagram, so a peer repeating one fragment cannot keep the probe reading.
		for ignored, reads := 0, 0; v == partial; reads++ {
			if reads >= 2*MaxFragments+maxIgnored {
				return nil, fmt.Errorf("%w: %d datagrams without completing the split reply", protocols.ErrTooLarge, reads)
			}
			d, err := x.conn.Recv()
			if err != nil {
				if errors.Is(err, protocols.ErrTimeout) && retries > 0 && ctx.Err() == nil {
					break
				}
				return nil, fmt.Errorf("split reply incomplete: %w", err)
			}
			m, nv, err := x.feed(d, want, alt)
			if nv == ignore {
				x.tr.Ignore("not the awaited reply")
				if ignored++; ignored >= maxIgnored {
					return nil, fmt.Errorf("%w: %d datagrams that do not answer the request", protocols.ErrMalformed, ignored)
				}
				continue
			}
			msg, v, ferr = m, nv, err
		}
		switch v {
		case done:
			return msg, nil
		case failed:
			return nil, ferr
		}
		retries--
	}
}
