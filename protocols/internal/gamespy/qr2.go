package gamespy

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"strconv"
	"time"

	"github.com/gameserver-exporter/gameserver_exporter/protocols/wire"
)

// ParseChallenge decodes a QR2 handshake reply (gamespy3.md §3): 0x09, the session
// echo and the token as ASCII decimal, which may be negative or above 2^31 (only its
// low 32 bits count), returned as the 4 big-endian bytes the stat request carries.
// need is false for the token "0": the server wants no challenge bytes.
func ParseChallenge(b []byte) (session, token [4]byte, need bool, err error) {
	if len(b) < 5 {
		return session, token, false, fmt.Errorf("%w: challenge reply of %d bytes", wire.ErrTruncated, len(b))
	}
	if b[0] != 0x09 {
		return session, token, false, fmt.Errorf("%w: challenge reply type 0x%02x at offset 0, want 0x09", wire.ErrMalformed, b[0])
	}
	session = [4]byte(b[1:5])
	s := b[5:]
	if i := bytes.IndexByte(s, 0); i >= 0 {
		s = s[:i]
	}
	s = bytes.TrimSpace(s)
	if len(s) == 0 || len(s) > 20 {
		return session, token, false, fmt.Errorf("%w: challenge token %q at offset 5 is not a decimal number", wire.ErrChallenge, s)
	}
	n, perr := strconv.ParseInt(string(s), 10, 64)
	if perr != nil {
		// Between 2^63 and 2^64: only the low 32 bits matter anyway.
		u, uerr := strconv.ParseUint(string(s), 10, 64)
		if uerr != nil {
			return session, token, false, fmt.Errorf("%w: challenge token %q at offset 5 is not a decimal number", wire.ErrChallenge, s)
		}
		n = int64(u)
	}
	v := uint32(n)
	token = [4]byte{byte(v >> 24), byte(v >> 16), byte(v >> 8), byte(v)}
	return session, token, n != 0, nil
}

// Slot returns ctx cut to an even share of its time left among left+1 attempts:
// the QR2 dialects retry handshake and stat together, as one unit.
func Slot(ctx context.Context, left int) (context.Context, context.CancelFunc) {
	dl, ok := ctx.Deadline()
	if !ok || left <= 0 {
		return context.WithCancel(ctx)
	}
	return context.WithDeadline(ctx, time.Now().Add(time.Until(dl)/time.Duration(left+1)))
}

// IdleDeadline returns when to stop waiting for the next packet of a split reply:
// after idle, or at ctx's deadline if that comes first. A server sends the packets
// of one reply back to back, so a longer silence means a lost packet.
func IdleDeadline(ctx context.Context, idle time.Duration) time.Time {
	wait := time.Now().Add(idle)
	if dl, ok := ctx.Deadline(); ok && dl.Before(wait) {
		wait = dl
	}
	return wait
}

// Counter counts the datagrams an accept func turned down, to explain a timeout by
// what came instead.
type Counter struct{ Foreign, Mismatched int }

// Explain turns a timeout into ErrMismatch when replies echoed another session id,
// or ErrMalformed when replies were not of the dialect (what names it); any other
// error is returned as is.
func (c *Counter) Explain(err error, what string) error {
	if !errors.Is(err, wire.ErrTimeout) {
		return err
	}
	switch {
	case c.Mismatched > 0:
		return fmt.Errorf("%w: %d replies echo another session id", wire.ErrMismatch, c.Mismatched)
	case c.Foreign > 0:
		return fmt.Errorf("%w: %d replies that are not %s", wire.ErrMalformed, c.Foreign, what)
	}
	return err
}
