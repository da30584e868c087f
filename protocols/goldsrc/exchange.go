package goldsrc

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/gameserver-exporter/gameserver_exporter/protocols"
	"github.com/gameserver-exporter/gameserver_exporter/protocols/a2s"
	"github.com/gameserver-exporter/gameserver_exporter/protocols/wire"
)

// exchanger runs request/reply exchanges on one socket, reassembling split replies.
type exchanger struct {
	conn    *wire.UDPConn
	tr      *wire.Trace
	retries int
	asm     a2s.Assembler // zero value: detects the GoldSrc (or Source) split layout
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
		if len(d) >= 5 && d[0] == 0xFF && d[1] == 0xFF && d[2] == 0xFF && d[3] == 0xFF && d[4] == a2s.TypeInfo {
			return d
		}
		x.tr.Ignore("not the awaited reply")
	}
	return nil
}

type verdict uint8

const (
	ignore  verdict = iota // not an answer to this request
	partial                // a fragment of a split reply was stored
	done                   // a complete reply is in msg
	failed                 // a split reply that cannot be reassembled
)

// feed classifies one datagram received while waiting for a reply that match
// approves. empty accepts a zero-length datagram as a reply.
func (x *exchanger) feed(d []byte, match func([]byte) bool, empty bool) ([]byte, verdict, error) {
	if len(d) == 0 && empty {
		return d, done, nil
	}
	if len(d) < 5 || d[1] != 0xFF || d[2] != 0xFF || d[3] != 0xFF || (d[0] != 0xFF && d[0] != 0xFE) {
		return nil, ignore, nil
	}
	msg, complete, err := x.asm.Add(d)
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

// request sends req and returns the first complete reply that match approves.
// conn.Request re-sends an unanswered request; once a split reply has started the
// rest is read here, and a set still incomplete when the attempt's time is up is
// re-requested while retries last, else it fails before the deadline.
func (x *exchanger) request(ctx context.Context, req []byte, match func([]byte) bool, empty bool) ([]byte, error) {
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
			msg, v, ferr = x.feed(d, match, empty)
			return v != ignore
		}); err != nil {
			return nil, err
		}
		// Duplicates of stored fragments are neither ignored nor progress: count every
		// datagram, so a peer repeating one fragment cannot keep the probe reading.
		for ignored, reads := 0, 0; v == partial; reads++ {
			if reads >= 2*a2s.MaxFragments+maxIgnored {
				return nil, fmt.Errorf("%w: %d datagrams without completing the split reply", protocols.ErrTooLarge, reads)
			}
			d, err := x.conn.Recv()
			if err != nil {
				if errors.Is(err, protocols.ErrTimeout) && retries > 0 && ctx.Err() == nil {
					break
				}
				return nil, fmt.Errorf("split reply incomplete: %w", err)
			}
			if msg, v, ferr = x.feed(d, match, empty); v == ignore {
				x.tr.Ignore("not the awaited reply")
				if ignored++; ignored >= maxIgnored {
					return nil, fmt.Errorf("%w: %d datagrams that do not answer the request", protocols.ErrMalformed, ignored)
				}
			}
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
