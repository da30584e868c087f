package steam

import (
	"context"
	"errors"
	"fmt"
	"net/netip"
	"time"

	"github.com/gameserver-exporter/gameserver_exporter/protocols/wire"
)

const (
	// MaxChallenges bounds the S2C_CHALLENGE answers one request may get before the
	// query gives up (gamedig: 3, python-a2s: 5).
	MaxChallenges = 5
	// maxIgnored bounds the datagrams skipped while a reply is being collected.
	maxIgnored = 32
	// detailedGrace is how long to wait, after a GoldSrc 0x6D reply, for the 0x49 some
	// HLDS builds send right behind it for the same request (spec §5).
	detailedGrace = 50 * time.Millisecond
)

// Exchanger runs request/reply exchanges on one socket, reassembling split replies
// (the zero Assembler detects the Source or GoldSrc layout).
type Exchanger struct {
	Conn    *wire.UDPConn
	Tr      *wire.Trace
	Retries int
	// Cache holds the challenge Addr accepted on an earlier probe (nil: off; see
	// CachedInfo and Remember).
	Cache *ChallengeCache
	Addr  netip.AddrPort
	// asm reassembles split replies; made for the first fragment: most replies are
	// one datagram, and the exchanger sits in the frame of a waiting probe
	// (collector's runner says why that frame is kept small).
	asm *Assembler
}

type verdict uint8

const (
	ignore  verdict = iota // not an answer to this request
	partial                // a fragment of a split reply was stored
	done                   // a complete reply is in msg
	failed                 // a split reply that cannot be reassembled
)

// feed classifies one datagram received while waiting for a reply that match
// approves (replies of other types, such as a late 0x49 while waiting for 0x44,
// are ignored: spec §3). empty accepts a zero-length datagram as a reply.
func (x *Exchanger) feed(d []byte, match func([]byte) bool, empty bool) ([]byte, verdict, error) {
	if len(d) == 0 && empty {
		return d, done, nil
	}
	if len(d) < 5 || d[1] != 0xFF || d[2] != 0xFF || d[3] != 0xFF || (d[0] != 0xFF && d[0] != 0xFE) {
		return nil, ignore, nil
	}
	msg, complete, err := d, true, error(nil) // a whole datagram, as Assembler.Add returns it
	if d[0] == 0xFE {
		if x.asm == nil {
			x.asm = new(Assembler)
		}
		msg, complete, err = x.asm.Add(d)
	}
	switch {
	case err != nil:
		return nil, failed, err
	case !complete:
		return nil, partial, nil
	case match(msg):
		return msg, done, nil
	}
	return nil, ignore, nil
}

// Request sends req and returns the first complete reply that match approves
// (match sees only messages of at least 5 bytes; empty also accepts a zero-length
// datagram). conn.Request re-sends an unanswered request; once a split reply has
// started, the rest is read here, and a set still incomplete when the attempt's
// time is up is re-requested while retries last.
func (x *Exchanger) Request(ctx context.Context, req []byte, match func([]byte) bool, empty bool) ([]byte, error) {
	if x.asm != nil {
		x.asm.Reset()
	}
	retries := x.Retries
	for {
		var (
			msg  []byte
			v    verdict
			ferr error
		)
		x.Conn.Retries = retries
		if _, err := x.Conn.Request(ctx, req, func(d []byte) bool {
			msg, v, ferr = x.feed(d, match, empty)
			return v != ignore
		}); err != nil {
			return nil, err
		}
		if v == partial {
			msg, v, ferr = x.rest(ctx, match, empty, retries > 0)
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

// rest reads the remaining fragments of a split reply. It returns verdict partial
// when the set is still incomplete at the attempt's end and again may re-request it.
func (x *Exchanger) rest(ctx context.Context, match func([]byte) bool, empty, again bool) ([]byte, verdict, error) {
	// Duplicates of stored fragments are neither ignored nor progress: count every
	// datagram, so a peer repeating one fragment cannot keep the probe reading.
	for ignored, reads := 0, 0; ; reads++ {
		if reads >= 2*MaxFragments+maxIgnored {
			return nil, failed, fmt.Errorf("%w: %d datagrams without completing the split reply", wire.ErrTooLarge, reads)
		}
		d, err := x.Conn.Recv()
		if err != nil {
			if errors.Is(err, wire.ErrTimeout) && again && ctx.Err() == nil {
				return nil, partial, nil
			}
			return nil, failed, fmt.Errorf("split reply incomplete: %w", err)
		}
		msg, v, err := x.feed(d, match, empty)
		switch v {
		case ignore:
			x.Tr.Ignore("not the awaited reply")
			if ignored++; ignored >= maxIgnored {
				return nil, failed, fmt.Errorf("%w: %d datagrams that do not answer the request", wire.ErrMalformed, ignored)
			}
		case done, failed:
			return msg, v, err
		}
	}
}

// Fetch runs A2S_PLAYER or A2S_RULES (base is the request with challenge -1, or
// with a challenge already known): any S2C_CHALLENGE answer is followed (spec §3.2,
// §3.4), and a server that skips the challenge and answers at once is accepted
// too. empty accepts a zero-length datagram as the answer.
func (x *Exchanger) Fetch(ctx context.Context, base []byte, want byte, empty bool) ([]byte, error) {
	match := func(msg []byte) bool { return len(msg) >= 5 && (msg[4] == want || msg[4] == TypeChallenge) }
	req := base
	for range MaxChallenges {
		msg, err := x.Request(ctx, req, match, empty)
		if err != nil {
			return nil, err
		}
		if len(msg) == 0 || msg[4] != TypeChallenge {
			return msg, nil
		}
		ch, err := DecodeChallenge(msg)
		if err != nil {
			return nil, err
		}
		req = WithChallenge(base[:5], ch)
	}
	return nil, fmt.Errorf("%w: request 0x%02x answered with S2C_CHALLENGE %d times", wire.ErrChallenge, base[4], MaxChallenges)
}

// SourceAfterDetailed waits briefly for the 0x49 some HLDS builds send right behind
// a 0x6D; nil when none comes.
func (x *Exchanger) SourceAfterDetailed(ctx context.Context) []byte {
	until := time.Now().Add(detailedGrace)
	dl, hasDL := ctx.Deadline()
	if hasDL && dl.Before(until) {
		until = dl
	}
	x.Conn.SetReadDeadline(until)
	defer x.Conn.SetReadDeadline(dl) // zero without a deadline: none
	for range maxIgnored {
		d, err := x.Conn.Recv()
		if err != nil {
			return nil
		}
		if len(d) >= 5 && isSingle(d) && d[4] == TypeInfo {
			return d
		}
		x.Tr.Ignore("not the awaited reply")
	}
	return nil
}

// WithChallenge returns base with the 4 challenge bytes appended.
func WithChallenge(base, ch []byte) []byte {
	out := make([]byte, len(base)+4)
	copy(out, base)
	copy(out[len(base):], ch)
	return out
}
