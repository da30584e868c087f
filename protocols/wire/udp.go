package wire

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/netip"
	"os"
	"strconv"
	"sync/atomic"
	"syscall"
	"time"
)

// MaxDatagram is the largest UDP payload; replies are read with a buffer this size.
const MaxDatagram = 65535

// socketUses and socketAge bound what one socket that serves many queries in turn
// (Linux's shared ones, the pooled ones elsewhere) serves before a fresh one, with a
// new random port chosen by the kernel, takes over: a blind spoofer must guess the
// port again.
const (
	socketUses = 256
	socketAge  = time.Second
)

// readBuffers lends 64 KiB read buffers. They are borrowed only while a datagram is
// being copied out (on Linux, see udpSocket.read in udp_linux.go), so thousands of
// probes waiting on silent servers hold no buffer at all, and a few buffers serve
// every probe; the portable path holds one for the length of a blocking read. A
// fixed free list of at most freeBuffers (512 KiB) rather than a sync.Pool: the GC
// empties a pool every cycle, and refilling it costs a zeroed 64 KiB allocation,
// about 5 us, each time (a busy exporter collects every few hundred probes).
type readBuffers chan []byte

const freeBuffers = 8

var buffers = make(readBuffers, freeBuffers)

func (l readBuffers) get() []byte {
	select {
	case b := <-l:
		return b
	default:
		return make([]byte, MaxDatagram)
	}
}

func (l readBuffers) put(b []byte) {
	select {
	case l <- b:
	default: // the list is full: b goes to the GC
	}
}

func getBuf() []byte  { return buffers.get() }
func putBuf(b []byte) { buffers.put(b) }

// UDPConn is a UDP exchange with one address, bound to one probe's deadline: only
// datagrams from that address and port are read, and an ICMP port unreachable
// surfaces as ErrRefused on the next read. On Linux it is usually a registration on
// a socket shared with other probes (shared_linux.go); otherwise, and when the
// shared socket already serves a query to the same address, it is a connected
// socket of its own (udpSocket: udp_linux.go opens it by hand, udp_pooled.go
// connects one of a pool again, udp_dial.go dials through package net).
type UDPConn struct {
	sh   *shared // nil: s is the socket
	left bool    // Close ran: the registration sh, or the socket s, is given back
	s    udpSocket
	tr   *Trace
	stop func() bool
	// readDeadline is the socket's read deadline as last set: setting it again to
	// the same time is skipped (each set re-arms a runtime timer).
	readDeadline time.Time
	// Retries is how many times Request re-sends a request that got no answer.
	Retries int
	// cancelled is set when a prompt cancellation closed the socket (closeOnCancel).
	cancelled atomic.Bool
	// waited is how long the datagram Recv returned last had waited to be read
	// since the kernel's arrival time (0: unknown); Request reports it to the
	// trace for the reply it accepts.
	waited time.Duration
}

// DialUDP opens a connected UDP socket to addr whose deadline is ctx's. A ctx without
// a deadline can be cancelled instead: that unblocks any read at once.
func DialUDP(ctx context.Context, addr netip.AddrPort, tr *Trace) (*UDPConn, error) {
	if !addr.IsValid() {
		return nil, netErr(&net.AddrError{Err: "invalid address", Addr: addr.String()})
	}
	u := &UDPConn{tr: tr}
	if sh := joinShared(addr); sh != nil {
		u.sh = sh
		if d, ok := ctx.Deadline(); ok {
			sh.deadline, u.readDeadline = d, d
			if promptCancel(ctx) {
				sh.done, sh.prompt = ctx.Done(), true
			}
		} else {
			sh.done = ctx.Done() // as watchCancel: a cancellation ends a read at once
		}
		return u, nil
	}
	if err := u.s.open(addr); err != nil {
		return nil, netErr(err)
	}
	u.bound(ctx)
	return u, nil
}

// DialUDPList is DialUDP for a reply of many datagrams at once (a master
// server's list): always a socket of its own, never a registration on a shared
// one (whose queue holds 256 datagrams of a query), with its receive buffer
// raised to listBuffer (the kernel caps it at net.core.rmem_max), so a burst
// of a few thousand datagrams waits in the kernel for the reader.
func DialUDPList(ctx context.Context, addr netip.AddrPort, tr *Trace) (*UDPConn, error) {
	if !addr.IsValid() {
		return nil, netErr(&net.AddrError{Err: "invalid address", Addr: addr.String()})
	}
	u := &UDPConn{tr: tr}
	if err := u.s.open(addr); err != nil {
		return nil, netErr(err)
	}
	u.s.setReadBuffer(listBuffer)
	u.bound(ctx)
	return u, nil
}

// bound ends the socket's reads by ctx: its deadline, or else its cancellation.
func (u *UDPConn) bound(ctx context.Context) {
	if d, ok := ctx.Deadline(); ok {
		u.s.SetDeadline(d)
		u.readDeadline = d
		u.stop = closeOnCancel(ctx, &u.s, &u.cancelled)
	} else {
		u.s.SetDeadline(time.Time{}) // a reused socket's last deadline
		u.stop = watchCancel(ctx, &u.s)
	}
}

// listBuffer is the receive buffer DialUDPList asks for.
const listBuffer = 8 << 20

// zoneIndex turns an IPv6 zone (fe80::1%eth0, fe80::1%2) into an interface index.
func zoneIndex(zone string) (uint32, error) {
	if zone == "" {
		return 0, nil
	}
	if ifi, err := net.InterfaceByName(zone); err == nil {
		return uint32(ifi.Index), nil
	}
	if n, err := strconv.ParseUint(zone, 10, 32); err == nil {
		return uint32(n), nil
	}
	return 0, &net.AddrError{Err: "unknown zone", Addr: zone}
}

// watchCancel makes a cancellation of ctx end any blocked read or write on c. It is
// used only when ctx has no deadline. With a deadline, the socket's deadline bounds
// every read and a cancellation is seen between attempts: the registration costs
// about a microsecond and two allocations per socket, and a query of a target that
// other scrapes share is better finished than dropped when its first scraper leaves.
func watchCancel(ctx context.Context, c interface{ SetDeadline(time.Time) error }) func() bool {
	return context.AfterFunc(ctx, func() { c.SetDeadline(time.Unix(1, 0)) })
}

// Close releases the socket.
func (u *UDPConn) Close() error {
	// The registration or the socket goes back to a pool: once only, and never
	// used again (a pooled socket may serve another query by then).
	if u.left {
		return nil
	}
	u.left = true
	if u.sh != nil {
		u.sh.leave()
		return nil
	}
	if u.stop != nil && !u.stop() {
		// A cancellation closed the socket or moved its deadline: not for reuse.
		return u.s.Close()
	}
	return u.s.release()
}

// SetReadDeadline narrows the read deadline (used to split time across retries).
func (u *UDPConn) SetReadDeadline(t time.Time) error {
	if t.Equal(u.readDeadline) {
		return nil
	}
	u.readDeadline = t
	switch {
	case u.left:
		return nil
	case u.sh != nil:
		u.sh.deadline = t
		return nil
	}
	return u.s.SetReadDeadline(t)
}

// Send writes one datagram. b must not be modified afterwards: the trace keeps it.
func (u *UDPConn) Send(b []byte) error { return u.send(b, false) }

// send is Send; ask, that a Recv follows at once (Request), so a pooled socket
// may send b from within that read (udp_pooled.go).
func (u *UDPConn) send(b []byte, ask bool) error {
	u.tr.Sent(b)
	if u.tr != nil {
		u.tr.Attempts++
	}
	var err error
	if u.left {
		err = net.ErrClosed
	} else if u.sh != nil {
		err = u.sh.write(b)
	} else if ask {
		err = u.s.ask(b)
	} else {
		_, err = u.s.Write(b)
	}
	if err != nil {
		return netErr(err)
	}
	return nil
}

// Recv waits for the next datagram and returns a copy of it sized to fit.
func (u *UDPConn) Recv() ([]byte, error) {
	var (
		b   []byte
		err error
	)
	if u.left {
		err = net.ErrClosed
	} else if u.sh != nil {
		var dropped int
		var at int64
		if b, at, dropped, err = u.sh.recv(); dropped > 0 {
			u.tr.Logf("%d datagrams from the server dropped: too many waiting to be read", dropped)
		}
		u.waited = 0
		if at > 0 {
			u.waited = time.Duration(time.Now().UnixNano() - at)
		}
	} else {
		b, err = u.s.recv()
	}
	if err != nil {
		if u.cancelled.Load() {
			// A raw read of a closed file is no os.ErrClosed: name it here.
			return nil, errProbeCancelled
		}
		return nil, netErr(err)
	}
	u.tr.Received(b)
	return b, nil
}

// Request sends req and returns the first reply that accept approves. Replies accept
// rejects are noted in the trace and skipped (late answers to an earlier request,
// stray packets); after maxIgnored of them the request fails as ErrMalformed. With
// Retries > 0 an unanswered request is re-sent, splitting the time left evenly
// across the attempts so the last one still ends by the deadline.
func (u *UDPConn) Request(ctx context.Context, req []byte, accept func([]byte) bool) ([]byte, error) {
	const maxIgnored = 32
	deadline, hasDeadline := ctx.Deadline()
	ignored := 0
	for attempt := 0; ; attempt++ {
		if err := u.send(req, true); err != nil {
			return nil, err
		}
		left := u.Retries - attempt
		if hasDeadline && left > 0 {
			slot := time.Until(deadline) / time.Duration(left+1)
			u.SetReadDeadline(time.Now().Add(slot))
		} else if hasDeadline {
			u.SetReadDeadline(deadline)
		}
		for {
			b, err := u.Recv()
			if err != nil {
				if errors.Is(err, ErrTimeout) && left > 0 && ctx.Err() == nil {
					break // resend
				}
				return nil, err
			}
			if accept == nil || accept(b) {
				u.tr.Waited(u.waited)
				return b, nil
			}
			u.tr.Ignore("unexpected reply")
			if ignored++; ignored >= maxIgnored {
				return nil, fmt.Errorf("%w: %d replies that do not answer the request", ErrMalformed, ignored)
			}
		}
	}
}

// The two errors every silent or cancelled probe ends with, built once: fmt.Errorf
// here was the deepest call of a probe waiting on a silent server, and grew each
// such probe's goroutine stack from 8 to 16 KiB (BENCHMARKS.md, memory).
var (
	errNoReply        = fmt.Errorf("%w: no reply before the deadline", ErrTimeout)
	errProbeCancelled = fmt.Errorf("%w: probe cancelled", ErrTimeout)
)

// netErr maps socket errors to the package's sentinel reasons, keeping the cause.
func netErr(err error) error {
	var ne net.Error
	switch {
	case errors.Is(err, os.ErrDeadlineExceeded), errors.Is(err, context.DeadlineExceeded),
		errors.Is(err, context.Canceled), errors.As(err, &ne) && ne.Timeout():
		return errNoReply
	case errors.Is(err, ErrRefused), errors.Is(err, errProbeCancelled):
		return err
	case errors.Is(err, syscall.ECONNREFUSED):
		return fmt.Errorf("%w: %v", ErrRefused, err)
	case errors.Is(err, net.ErrClosed), errors.Is(err, os.ErrClosed):
		return errProbeCancelled
	}
	return fmt.Errorf("%w: %v", ErrNetwork, err)
}

// Exchange sends req and returns the first reply decode takes. decode sorts each
// datagram three ways: skip != nil, not an answer to this request (another packet
// type, a stray, a reply to another challenge: noted in the trace and skipped);
// err != nil, the answer but broken (the exchange ends with it); else the answer.
// When the deadline passes after skipped datagrams (or Request gives up after too
// many), the error says why the last one was skipped rather than only "timeout":
// the server did answer, never usably.
func Exchange[T any](ctx context.Context, u *UDPConn, req []byte, decode func([]byte) (v T, skip, err error)) (T, error) {
	var (
		v       T
		decErr  error
		skipped error
	)
	_, err := u.Request(ctx, req, func(b []byte) bool {
		got, skip, err := decode(b)
		switch {
		case skip != nil:
			skipped = skip
			u.tr.Logf("skipped datagram: %v", skip)
			return false
		case err != nil:
			decErr = err
		default:
			v = got
		}
		return true
	})
	switch {
	case err == nil:
		err = decErr
	case skipped == nil:
	case errors.Is(err, ErrTimeout):
		err = fmt.Errorf("no usable reply before the deadline, last one skipped: %w", skipped)
	case errors.Is(err, ErrMalformed): // Request gave up after too many skipped
		err = fmt.Errorf("%v, the last one skipped: %w", err, skipped)
	}
	if err != nil {
		var zero T
		return zero, err
	}
	return v, nil
}
