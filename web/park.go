package web

import (
	"log"
	"net"
	"net/http"
	"runtime/debug"
	"sync"
	"sync/atomic"
	"time"
)

// Parking keeps thousands of slow probes cheap. While net/http holds a request its
// connection costs a goroutine (an 8 KiB stack by the time a probe waits), a
// background reader and ~10 KiB of buffers, ~24 KiB in all: with 10,000 probes of
// silent servers in flight, most of the exporter's memory (BENCHMARKS.md). Past
// Above probes in flight, a new probe takes its connection over (Hijack) so that
// net/http's goroutine and buffers go, runs in a goroutine of its own, writes its
// answer itself and hands the connection back to the server through the Parking's
// listener, where net/http goes on reading requests from it: Prometheus keeps its
// connection, TLS ones too. Below Above, and for HTTP/2, nothing changes.
type Parking struct {
	above    int64
	srv      *http.Server
	inFlight atomic.Int64

	serveOnce sync.Once
	conns     chan net.Conn
	done      chan struct{}
	closeOnce sync.Once

	mu   sync.Mutex
	idle map[net.Conn]struct{} // answered, waiting for the next request (await)
}

// NewParking parks probes past above in flight; srv serves the connections they
// hand back (it must be the server that hands ProbeHandler its requests).
func NewParking(above int, srv *http.Server) *Parking {
	return &Parking{above: int64(above), srv: srv, conns: make(chan net.Conn), done: make(chan struct{}), idle: make(map[net.Conn]struct{})}
}

// DefaultParkAbove leaves the requests of an ordinary load to net/http (the load
// harness keeps 50 in flight): parking a probe costs ~8 us of CPU (the hijack, a
// goroutine, the hand-back; BENCHMARKS.md), worth it for a crowd of waiting probes,
// each of which net/http would hold at ~28 KiB more than a parked one.
const DefaultParkAbove = 64

// enter counts a probe in and reports whether it is past Above.
func (p *Parking) enter() bool { return p.inFlight.Add(1) > p.above }

func (p *Parking) leave() { p.inFlight.Add(-1) }

// park takes r's connection over; false when it cannot (HTTP/2, a connection
// net/http already gave up).
func (p *Parking) park(w http.ResponseWriter, r *http.Request) (*parked, bool) {
	hj, ok := w.(http.Hijacker)
	if !ok || r.ProtoMajor != 1 {
		return nil, false
	}
	// Headers set before the handler (exporter-toolkit's configured ones) are kept.
	hdr := w.Header().Clone()
	conn, rw, err := hj.Hijack()
	if err != nil {
		return nil, false
	}
	p.serveOnce.Do(func() { go p.srv.Serve(p) })
	return &parked{
		conn: conn,
		hdr:  hdr,
		// Bytes already read past this request (a pipelining client) stay in net/http's
		// buffer, which is gone: such a connection is answered and closed.
		keep: r.ProtoAtLeast(1, 1) && !r.Close && rw.Reader.Buffered() == 0,
		head: r.Method == http.MethodHead,
	}, true
}

// serve runs a parked probe, writes its answer and, once the client sends its next
// request, hands the connection back to the server. A panic closes the connection
// and is logged, as net/http does for a handler: the exporter stays up. The probe
// is called from this lean frame and the rest done in answer: the goroutine's
// stack is all a waiting probe costs (collector's runner says why).
func (p *Parking) serve(b *parked, probe func(http.ResponseWriter)) {
	defer p.recoverParked(b)
	probe(b)
	b.left = true
	p.leave()
	p.answer(b)
}

// recoverParked is serve's panic handler.
func (p *Parking) recoverParked(b *parked) {
	err := recover()
	if err == nil {
		return
	}
	if !b.left {
		p.leave()
	}
	logf := log.Printf
	if p.srv.ErrorLog != nil {
		logf = p.srv.ErrorLog.Printf
	}
	logf("http: panic serving a parked probe for %v: %v\n%s", b.conn.RemoteAddr(), err, debug.Stack())
	b.conn.Close()
}

// answer writes the parked probe's answer and hands the connection back.
//
//go:noinline
func (p *Parking) answer(b *parked) {
	if !p.write(b) || !b.keep {
		b.conn.Close()
		return
	}
	if !p.await(b.conn) {
		b.conn.Close()
		return
	}
	select {
	case p.conns <- b.conn:
	case <-p.done:
		b.conn.Close()
	}
}

// write writes the parked probe's answer, as net/http would have.
func (p *Parking) write(b *parked) bool {
	defer b.release()
	b.seed(b.hdr)
	a := b.answer(b.keep, b.head)
	b.conn.SetWriteDeadline(time.Now().Add(writeBudget(len(a))))
	_, err := b.conn.Write(a)
	b.conn.SetWriteDeadline(time.Time{})
	return err == nil
}

// await waits for c's next request (awaitNext) within the server's IdleTimeout;
// Close ends the wait.
func (p *Parking) await(c net.Conn) bool {
	if d := p.srv.IdleTimeout; d > 0 {
		c.SetReadDeadline(time.Now().Add(d))
	}
	p.mu.Lock()
	select {
	case <-p.done: // Close has run, or runs after the check and finds c in idle
		p.mu.Unlock()
		return false
	default:
	}
	p.idle[c] = struct{}{}
	p.mu.Unlock()
	ok := awaitNext(c)
	p.mu.Lock()
	delete(p.idle, c)
	p.mu.Unlock()
	c.SetReadDeadline(time.Time{})
	return ok
}

// Accept, Close and Addr make the Parking the listener of handed-back connections;
// the server closes it on Shutdown.
func (p *Parking) Accept() (net.Conn, error) {
	select {
	case c := <-p.conns:
		return c, nil
	case <-p.done:
		return nil, net.ErrClosed
	}
}

func (p *Parking) Close() error {
	p.closeOnce.Do(func() { close(p.done) })
	p.mu.Lock()
	defer p.mu.Unlock()
	for c := range p.idle {
		c.SetReadDeadline(time.Unix(1, 0)) // past: awaitNext returns
	}
	return nil
}

func (p *Parking) Addr() net.Addr { return parkAddr{} }

type parkAddr struct{}

func (parkAddr) Network() string { return "parked" }
func (parkAddr) String() string  { return "parked probes" }

// parked is a hijacked connection and the answer being written for it: an
// http.ResponseWriter (fastWriter's) that keeps everything until the probe ends.
type parked struct {
	fastWriter
	conn net.Conn
	hdr  http.Header // set before the handler: added to its answer
	keep bool
	head bool
	left bool // the probe has ended and left the in-flight count
}
