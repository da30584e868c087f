package web

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"net"
	"net/url"
	"sync"
	"sync/atomic"
	"time"

	"golang.org/x/net/http/httpguts"
)

// FastListener answers the common scrape itself: a plain-HTTP/1.1 `GET /probe?...`
// without a body. net/http spends about a fifth of a probe's CPU on a request
// (a goroutine and a read for its background reader, the request's context,
// header maps, the response's buffers; BENCHMARKS.md): here a connection's
// goroutine reads the header block in place, runs the probe and writes the answer
// in one write. Every other request (another path or method, HTTP/1.0, a body,
// an upgrade, debug output, a header block past 4 KiB, anything unusual) hands
// its connection, the bytes already read included, to the http.Server that
// Accepts from the FastListener, which then serves that connection as always.
//
// Only for plain HTTP without a web config file: TLS and basic auth are
// exporter-toolkit's, in front of net/http.
type FastListener struct {
	net.Listener
	h *ProbeHandler
	// Timeouts, as the http.Server's (NewServer): for a request's header block,
	// for the next request on an idle connection, for writing an answer (plus
	// byteTime of its length: writeBudget).
	headerTimeout, idleTimeout, writeTimeout time.Duration

	conns     chan net.Conn // handed to net/http
	done      chan struct{}
	startOnce sync.Once // the accept loop starts with the first Accept
	closeOnce sync.Once

	mu     sync.Mutex
	served map[*fastConn]struct{} // for Close to end the idle ones
}

// NewFastListener serves l's probe requests with h and hands the rest of its
// connections to whatever Accepts from the returned listener.
func NewFastListener(l net.Listener, h *ProbeHandler) *FastListener {
	f := &FastListener{
		Listener: l, h: h,
		headerTimeout: readHeaderTimeout, idleTimeout: idleTimeout, writeTimeout: writeBase,
		conns: make(chan net.Conn), done: make(chan struct{}), served: make(map[*fastConn]struct{}),
	}
	return f
}

func (f *FastListener) acceptLoop() {
	var backoff time.Duration
	for {
		c, err := f.Listener.Accept()
		if err != nil {
			if errors.Is(err, net.ErrClosed) || f.closed() {
				f.Close()
				return
			}
			// Out of descriptors, an aborted handshake: wait and go on, as
			// net/http does for its temporary errors.
			backoff = min(max(2*backoff, 5*time.Millisecond), time.Second)
			select {
			case <-time.After(backoff):
			case <-f.done:
			}
			continue
		}
		backoff = 0
		go f.serve(c)
	}
}

// Accept returns the connections net/http serves.
func (f *FastListener) Accept() (net.Conn, error) {
	f.startOnce.Do(func() { go f.acceptLoop() })
	select {
	case c := <-f.conns:
		return c, nil
	case <-f.done:
		return nil, net.ErrClosed
	}
}

// Close stops accepting and closes the connections waiting for a request;
// probes being answered finish, and their connections close then.
func (f *FastListener) Close() error {
	var err error
	f.closeOnce.Do(func() {
		close(f.done)
		err = f.Listener.Close()
		f.mu.Lock()
		for s := range f.served {
			if s.idle.Load() {
				s.c.SetReadDeadline(time.Unix(1, 0)) // past: the read returns
			}
		}
		f.mu.Unlock()
	})
	return err
}

func (f *FastListener) closed() bool {
	select {
	case <-f.done:
		return true
	default:
		return false
	}
}

// fastReaderSize bounds the header block the fast path reads: Prometheus sends
// a few hundred bytes; more goes to net/http and its limits.
const fastReaderSize = 4096

var fastReaders = sync.Pool{New: func() any { return bufio.NewReaderSize(nil, fastReaderSize) }}

// idleBufs hold a request's first bytes, read while no reader is taken (rawIO's
// readIdle): one is taken for each such read and given back before a wait.
var idleBufs = sync.Pool{New: func() any { b := make([]byte, fastReaderSize); return &b }}

// fastConn is a connection the fast path serves, and its current request.
type fastConn struct {
	c    net.Conn
	br   *bufio.Reader // nil while a probe runs with nothing read past its request
	pr   probeRequest
	keep bool
	idle atomic.Bool // waiting for its next request: Close ends the wait
	// The deadlines set on c. One is moved only when it would end more than a
	// sixteenth of its timeout early: moving it takes the runtime's timer lock, and
	// a busy keep-alive connection would move each twice a scrape.
	rdl, wdl time.Time
	raw      *rawIO // nil: c's own Read and Write
	// The next request's first bytes, read before br was taken (awaitRequest),
	// and the pooled buffer that holds them.
	pre    []byte
	preBuf *[]byte
}

// Read reads the connection for the request reader.
func (s *fastConn) Read(p []byte) (int, error) {
	if s.preBuf != nil {
		n := copy(p, s.pre)
		if s.pre = s.pre[n:]; len(s.pre) == 0 {
			s.releasePre()
		}
		return n, nil
	}
	if s.raw != nil {
		return s.raw.read(p)
	}
	return s.c.Read(p)
}

func (s *fastConn) write(b []byte) error {
	if s.raw != nil {
		return s.raw.write(b)
	}
	_, err := s.c.Write(b)
	return err
}

// within reports whether deadline dl, due within d from now, must move.
func within(dl *time.Time, d time.Duration) (time.Time, bool) {
	t := time.Now().Add(d)
	if dl.After(t) || dl.Before(t.Add(-d/16)) {
		*dl = t
		return t, true
	}
	return t, false
}

// readWithin makes c's reads end within d from now, and no more than d/16 sooner.
func (s *fastConn) readWithin(d time.Duration) {
	if t, move := within(&s.rdl, d); move {
		s.c.SetReadDeadline(t)
	}
}

// writeWithin is readWithin for writes.
func (s *fastConn) writeWithin(d time.Duration) {
	if t, move := within(&s.wdl, d); move {
		s.c.SetWriteDeadline(t)
	}
}

// serve answers c's probe requests until one is not for the fast path, the
// client closes or asks to, or a timeout passes. Its frame is lean and the
// request is read in a function of its own: a probe waiting for its server holds
// this goroutine's stack (collector's runner says why).
func (f *FastListener) serve(c net.Conn) {
	s := &fastConn{c: c, raw: newRawIO(c)}
	if !f.track(s) {
		c.Close()
		return
	}
	defer f.untrack(s)
	defer s.release()
	for first := true; ; first = false {
		switch f.next(s, first) {
		case nextClose:
			c.Close()
			return
		case nextHandOff:
			f.handOff(c, s.br)
			s.br = nil
			return
		}
		if !f.answer(s) || !s.keep || f.closed() {
			c.Close()
			return
		}
	}
}

// track registers s for Close; false once closed.
func (f *FastListener) track(s *fastConn) bool {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.closed() {
		return false
	}
	f.served[s] = struct{}{}
	return true
}

func (f *FastListener) untrack(s *fastConn) {
	f.mu.Lock()
	delete(f.served, s)
	f.mu.Unlock()
}

func (s *fastConn) releasePre() {
	if s.preBuf != nil {
		idleBufs.Put(s.preBuf)
		s.pre, s.preBuf = nil, nil
	}
}

func (s *fastConn) release() {
	s.releasePre()
	if s.br != nil {
		s.br.Reset(nil)
		fastReaders.Put(s.br)
		s.br = nil
	}
}

const (
	nextProbe = iota
	nextClose
	nextHandOff
)

// next reads the connection's next request into s.
//
//go:noinline
func (f *FastListener) next(s *fastConn, first bool) int {
	if !f.awaitRequest(s, first) {
		return nextClose
	}
	if s.br == nil {
		s.br = fastReaders.Get().(*bufio.Reader)
		s.br.Reset(s)
		s.br.Peek(1) // what awaitRequest read: no system call
	}
	pr, n, keep, ok, err := f.readProbe(s)
	switch {
	case err != nil:
		return nextClose // cut short, or past the header timeout: as net/http does
	case !ok:
		return nextHandOff
	}
	s.br.Discard(n)
	if s.br.Buffered() == 0 {
		s.release() // a waiting probe holds no buffer
	}
	// The read deadline stays: nothing reads while the probe runs, and every read
	// sets its own first.
	s.pr, s.keep = pr, keep && !f.closed()
	return nextProbe
}

// awaitRequest waits for the first byte of the next request: within the header
// timeout on a new connection, the idle timeout on a kept one. Close ends it.
// Without a request reader (s.br nil: nothing was read past the last request)
// it waits holding no buffer where rawIO can (s.pre then holds what came).
func (f *FastListener) awaitRequest(s *fastConn, first bool) bool {
	if s.br != nil && s.br.Buffered() > 0 {
		return true
	}
	d := f.idleTimeout
	if first {
		d = f.headerTimeout
	}
	s.readWithin(d)
	// Idle, then closed? in this order: Close marks done, then ends the idle
	// connections' reads, so a connection is either seen idle or sees done.
	s.idle.Store(true)
	defer s.idle.Store(false)
	if f.closed() {
		return false
	}
	if s.br == nil && s.raw != nil {
		b, n, err := s.raw.readIdle()
		if err != nil {
			return false
		}
		s.pre, s.preBuf = (*b)[:n], b
		return true
	}
	if s.br == nil {
		s.br = fastReaders.Get().(*bufio.Reader)
		s.br.Reset(s)
	}
	_, err := s.br.Peek(1)
	return err == nil
}

// readProbe peeks the request's header block and reports whether the fast path
// takes it: its length, whether the connection stays open, the probe request.
//
//go:noinline
func (f *FastListener) readProbe(s *fastConn) (pr probeRequest, n int, keep, ok bool, err error) {
	br := s.br
	var head []byte
	for timed := false; ; timed = true {
		b, _ := br.Peek(br.Buffered())
		end, other := headEnd(b)
		if end >= 0 {
			head, n = b[:end-2], end
			break
		}
		if other || br.Buffered() == fastReaderSize {
			return pr, 0, false, false, nil // a long header block: net/http's limits
		}
		if !timed { // the block came in pieces: the rest within the header timeout
			s.readWithin(f.headerTimeout)
		}
		if _, err := br.Peek(br.Buffered() + 1); err != nil {
			return pr, 0, false, false, err
		}
	}
	pr, keep, ok = parseProbe(head)
	return pr, n, keep, ok, nil
}

// headEnd returns the length of the header block at the start of b, its empty
// line included, or -1 while more may come; other reports a request the fast
// path leaves to net/http whatever follows: a bare LF, which net/http reads as a
// line's end (it answers such a request at once: waiting for a CRLF would leave
// it unanswered until the header timeout).
func headEnd(b []byte) (n int, other bool) {
	if i := bytes.Index(b, []byte("\r\n\r\n")); i >= 0 {
		return i + 4, false
	}
	for i, c := range b {
		if c == '\n' && (i == 0 || b[i-1] != '\r') {
			return -1, true
		}
	}
	return -1, false
}

// parseProbe reads a header block (request line and headers, each ending in
// CRLF). Only what the fast path answers exactly as net/http would is taken: a
// GET of /probe with a query, HTTP/1.1, a Host header, no body, no upgrade, no
// debug output, no byte net/http would refuse.
func parseProbe(head []byte) (pr probeRequest, keep, ok bool) {
	line, rest, _ := bytes.Cut(head, []byte("\r\n"))
	const prefix = "GET /probe?"
	const suffix = " HTTP/1.1"
	if !bytes.HasPrefix(line, []byte(prefix)) || !bytes.HasSuffix(line, []byte(suffix)) {
		return pr, false, false
	}
	raw := line[len(prefix) : len(line)-len(suffix)]
	for _, ch := range raw {
		if ch <= ' ' || ch >= 0x7f || ch == '#' {
			return pr, false, false
		}
	}
	keep, ok = readHeaders(rest, &pr)
	if !ok {
		return pr, false, false
	}
	if !fastParams(raw, &pr) {
		return pr, false, false // the handler says why, or debug output: access rules on the request
	}
	return pr, keep, true
}

// fastParams reads module and target from a query as url.ParseQuery would,
// without its map: false for what the handler must see (a parameter given twice,
// debug, a bad escape, a semicolon, which ParseQuery refuses).
func fastParams(raw []byte, pr *probeRequest) bool {
	if bytes.IndexByte(raw, ';') >= 0 {
		return false
	}
	var seenModule, seenTarget bool
	for len(raw) > 0 {
		var pair []byte
		pair, raw, _ = bytes.Cut(raw, []byte("&"))
		if len(pair) == 0 {
			continue
		}
		k, v, _ := bytes.Cut(pair, []byte("="))
		key := string(k) // not copied when nothing needs unescaping (compared only)
		if bytes.ContainsAny(k, "%+") {
			var err error
			if key, err = url.QueryUnescape(string(k)); err != nil {
				return false
			}
		}
		switch key {
		case "module", "target":
			value, err := url.QueryUnescape(string(v))
			if err != nil {
				return false
			}
			if key == "module" {
				if seenModule {
					return false
				}
				seenModule, pr.module = true, value
			} else {
				if seenTarget {
					return false
				}
				seenTarget, pr.target = true, value
			}
		case "debug":
			return false
		default:
			if _, err := url.QueryUnescape(string(v)); err != nil {
				return false
			}
		}
	}
	return true
}

// readHeaders reads the headers a probe needs into pr: whether the connection
// stays open, and false for anything the fast path leaves to net/http (a body, an
// upgrade, not exactly one Host, a Host net/http refuses).
func readHeaders(rest []byte, pr *probeRequest) (keep, ok bool) {
	hosts := 0
	keep = true
	for len(rest) > 0 {
		var h []byte
		h, rest, _ = bytes.Cut(rest, []byte("\r\n"))
		name, value, found := bytes.Cut(h, []byte(":"))
		if !found || len(name) == 0 || !validHeader(name, value) {
			return false, false
		}
		value = bytes.TrimSpace(value)
		switch {
		case asciiEqualFold(name, "host"):
			hosts++
			for _, c := range value {
				if !hostBytes[c] {
					return false, false
				}
			}
		case asciiEqualFold(name, "accept"):
			if pr.accept == "" {
				pr.accept = string(value)
			}
		case asciiEqualFold(name, "x-prometheus-scrape-timeout-seconds"):
			if pr.scrapeTimeout == "" {
				pr.scrapeTimeout = string(value)
			}
		case asciiEqualFold(name, "connection"):
			closing, ok := connectionClose(value)
			if !ok {
				return false, false
			}
			keep = keep && !closing
		case asciiEqualFold(name, "content-length"):
			if string(value) != "0" {
				return false, false
			}
		case asciiEqualFold(name, "transfer-encoding"), asciiEqualFold(name, "upgrade"),
			asciiEqualFold(name, "expect"), asciiEqualFold(name, "trailer"):
			return false, false
		}
	}
	return keep, hosts == 1
}

// hostBytes are the bytes net/http takes in a Host header (httpguts'), as a table:
// its check of a string would copy a long header to the heap.
var hostBytes = func() (t [256]bool) {
	for c := range t {
		t[c] = httpguts.ValidHostHeader(string([]byte{byte(c)}))
	}
	return t
}()

// connectionClose reads a Connection header: whether it says close, and false
// for any token but close and keep-alive (an upgrade, hop-by-hop names: net/http).
func connectionClose(value []byte) (closing, ok bool) {
	for _, tok := range bytes.Split(value, []byte(",")) {
		switch tok = bytes.TrimSpace(tok); {
		case asciiEqualFold(tok, "close"):
			closing = true
		case !asciiEqualFold(tok, "keep-alive"):
			return false, false
		}
	}
	return closing, true
}

// validHeader reports whether a header's name is a token and its value holds
// no control byte but tab: what net/http accepts.
func validHeader(name, value []byte) bool {
	for _, ch := range name {
		if ch <= ' ' || ch >= 0x7f || bytes.IndexByte([]byte(`"(),/:;<=>?@[\]{}`), ch) >= 0 {
			return false
		}
	}
	for _, ch := range value {
		if ch < ' ' && ch != '\t' || ch == 0x7f {
			return false
		}
	}
	return true
}

func asciiEqualFold(b []byte, s string) bool {
	if len(b) != len(s) {
		return false
	}
	for i := range len(b) {
		x := b[i]
		if 'A' <= x && x <= 'Z' {
			x += 'a' - 'A'
		}
		if x != s[i] {
			return false
		}
	}
	return true
}

// answer runs the probe and writes its answer as net/http would, in one write;
// false when the write failed.
func (f *FastListener) answer(s *fastConn) bool {
	var w fastWriter
	f.h.probe(context.Background(), &w, &s.pr)
	return f.write(s, &w)
}

//go:noinline
func (f *FastListener) write(s *fastConn, w *fastWriter) bool {
	defer w.release()
	b := w.answer(s.keep, false)
	s.writeWithin(f.writeTimeout + byteTime(len(b)))
	return s.write(b) == nil
}

// handOff gives c to net/http, the bytes br read first.
func (f *FastListener) handOff(c net.Conn, br *bufio.Reader) {
	c.SetDeadline(time.Time{}) // net/http sets its own
	select {
	case f.conns <- &readConn{Conn: c, r: br}:
	case <-f.done:
		c.Close()
	}
}

// readConn is a connection whose reads first return the bytes r read from it;
// once they are out, r goes back to the pool and reads go to the connection.
type readConn struct {
	net.Conn
	mu sync.Mutex
	r  *bufio.Reader
}

// CloseWrite shuts the sending side, which the embedded interface hides:
// net/http does that before it closes a connection it answered with an error
// (431, 400) while the client may still be sending, so that the client reads the
// answer rather than a reset.
func (c *readConn) CloseWrite() error {
	if cw, ok := c.Conn.(interface{ CloseWrite() error }); ok {
		return cw.CloseWrite()
	}
	return nil
}

func (c *readConn) Read(p []byte) (int, error) {
	c.mu.Lock()
	if r := c.r; r != nil {
		if r.Buffered() > 0 {
			n, err := r.Read(p) // from the buffer alone: it does not block
			c.mu.Unlock()
			return n, err
		}
		r.Reset(nil)
		fastReaders.Put(r)
		c.r = nil
	}
	c.mu.Unlock()
	return c.Conn.Read(p)
}
