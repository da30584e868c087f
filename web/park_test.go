package web

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"io"
	"log"
	"net"
	"net/http"
	"net/http/httptest"
	"net/http/httptrace"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/gameserver-exporter/gameserver_exporter/protocols"
	"github.com/gameserver-exporter/gameserver_exporter/protocols/prototest"
	"github.com/gameserver-exporter/gameserver_exporter/protocols/wire"
)

const probePath = "/probe?module=fake&target=127.0.0.1"

// parkServer serves h (past above probes in flight parked) with a configured header
// set before it, as exporter-toolkit's web config does.
func parkServer(t *testing.T, h *ProbeHandler, above int, tls bool) *httptest.Server {
	t.Helper()
	ts := httptest.NewUnstartedServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("X-Configured", "kept")
		h.ServeHTTP(w, r)
	}))
	h.Parking = NewParking(above, ts.Config)
	if tls {
		ts.StartTLS()
	} else {
		ts.Start()
	}
	t.Cleanup(func() {
		ts.Close()
		h.Parking.Close()
	})
	return ts
}

// A parked probe answers as net/http would, and its connection goes back to the
// server: the client sends the next probes on it, over TLS too.
func TestParkKeepsConnection(t *testing.T) {
	for _, tls := range []bool{false, true} {
		t.Run(fmt.Sprint("tls=", tls), func(t *testing.T) {
			h := newTestHandler(t, &prototest.FakeQuerier{Result: &protocols.Result{Name: "parked", Players: protocols.Known(3)}}, nil)
			ts := parkServer(t, h, 0, tls)
			var reused []bool
			trace := &httptrace.ClientTrace{GotConn: func(i httptrace.GotConnInfo) { reused = append(reused, i.Reused) }}
			do := func(method, path string) (*http.Response, string) {
				t.Helper()
				req, _ := http.NewRequestWithContext(httptrace.WithClientTrace(context.Background(), trace), method, ts.URL+path, nil)
				resp, err := ts.Client().Do(req)
				if err != nil {
					t.Fatalf("%s %s: %v", method, path, err)
				}
				body, _ := io.ReadAll(resp.Body)
				resp.Body.Close()
				return resp, string(body)
			}
			for i, tc := range []struct {
				method, path, want string
				code               int
			}{
				{"GET", probePath, "gameserver_players 3\n", 200},
				{"GET", probePath, "gameserver_players 3\n", 200},
				{"GET", probePath, "gameserver_players 3\n", 200},
				{"GET", probePath + "&debug=true", "probe_success 1", 200}, // written by the parked probe too
				{"GET", "/probe?module=nope&target=127.0.0.1", `unknown module "nope"`, 400},
				{"HEAD", probePath, "", 200},                      // the length of the body it would have, no body
				{"GET", probePath, "gameserver_players 3\n", 200}, // its own answer, not a body sent after the HEAD's
			} {
				resp, body := do(tc.method, tc.path)
				// X-Configured: the header set before the handler.
				if resp.StatusCode != tc.code || !strings.Contains(body, tc.want) || resp.Header.Get("X-Configured") != "kept" || resp.Close ||
					tc.path != probePath && resp.Header.Get("X-Content-Type-Options") != "nosniff" || !strings.HasPrefix(resp.Header.Get("Content-Type"), "text/plain") {
					t.Errorf("%d %s %s: status %d, headers %v, close %v, body\n%s", i, tc.method, tc.path, resp.StatusCode, resp.Header, resp.Close, body)
				}
				ct := resp.Header.Get("Content-Type")
				if tc.method == "HEAD" && (len(body) != 0 || resp.ContentLength < 100) || tc.path == probePath && tc.method == "GET" &&
					(resp.ContentLength != int64(len(body)) || !strings.Contains(body, "probe_success 1\n") || !strings.HasPrefix(ct, "text/plain; version=0.0.4")) {
					t.Errorf("%d %s: Content-Length %d for %d bytes, Content-Type %q", i, tc.method, resp.ContentLength, len(body), ct)
				}
			}
			if want := []bool{false, true, true, true, true, true, true}; !slices.Equal(reused, want) {
				t.Errorf("connection reused %v, want %v", reused, want)
			}
			if n := h.Parking.inFlight.Load(); n != 0 {
				t.Errorf("%d probes still counted in flight", n)
			}
		})
	}
}

// A client that asks to close, an HTTP/1.0 one, or one that already sent its next
// request gets its answer, then the connection closes.
func TestParkClosesWhenAsked(t *testing.T) {
	h := newTestHandler(t, &prototest.FakeQuerier{Result: &protocols.Result{Name: "parked"}}, nil)
	ts := parkServer(t, h, 0, false)
	for _, tc := range []struct{ name, req string }{
		{"connection close", "GET " + probePath + " HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n"},
		{"HTTP/1.0", "GET " + probePath + " HTTP/1.0\r\n\r\n"},
		{"pipelined", "GET " + probePath + " HTTP/1.1\r\nHost: x\r\n\r\nGET " + probePath + " HTTP/1.1\r\nHost: x\r\n\r\n"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c, br := dial(t, ts.Listener.Addr().String())
			resp, body := roundTrip(t, c, br, tc.req)
			if resp.StatusCode != 200 || !strings.Contains(body, "probe_success 1\n") || !resp.Close {
				t.Fatalf("status %d, close %v, body\n%s", resp.StatusCode, resp.Close, body)
			}
			if n, err := br.Read(make([]byte, 1)); err != io.EOF {
				t.Errorf("connection still open after the answer: read %d bytes, %v", n, err)
			}
		})
	}
}

// gate is a querier whose queries wait until it opens.
type gate struct {
	open  chan struct{}
	calls atomic.Int32
}

func (g *gate) Query(ctx context.Context, _ protocols.Target, _ *wire.Trace) (*protocols.Result, error) {
	g.calls.Add(1)
	select {
	case <-g.open:
		return &protocols.Result{Name: "late"}, nil
	case <-ctx.Done():
		return nil, ctx.Err()
	}
}

// Parked, a waiting probe holds one goroutine instead of net/http's connection
// goroutine and background reader: the memory of 10,000 probes of silent servers.
func TestParkFreesConnectionGoroutines(t *testing.T) {
	const n = 40
	perProbe := map[bool]float64{}
	for _, park := range []bool{false, true} {
		g := &gate{open: make(chan struct{})}
		h := newTestHandler(t, g, nil)
		above := n + 1
		if park {
			above = 0
		}
		ts := parkServer(t, h, above, false)
		base := runtime.NumGoroutine()
		conns := make([]net.Conn, n)
		for i := range conns {
			conns[i], _ = dial(t, ts.Listener.Addr().String())
			// Each its own target: probes of one target share one query.
			io.WriteString(conns[i], "GET /probe?module=fake&target=127.0.0.1:"+strconv.Itoa(20000+i)+" HTTP/1.1\r\nHost: x\r\n\r\n")
		}
		waitUntil(t, "the probes did not all start", func() bool { return g.calls.Load() >= n })
		perProbe[park] = float64(runtime.NumGoroutine()-base) / n
		close(g.open)
		for i, c := range conns {
			if resp, body := roundTrip(t, c, bufio.NewReader(c), ""); resp.StatusCode != 200 || !strings.Contains(body, `name="late"`) || resp.Close {
				t.Fatalf("park %v: probe %d: status %d, close %v, body\n%s", park, i, resp.StatusCode, resp.Close, body)
			}
		}
	}
	t.Logf("goroutines per waiting probe: %.2f held by net/http, %.2f parked", perProbe[false], perProbe[true])
	if perProbe[false] < 1.9 || perProbe[true] > 1.1 {
		t.Errorf("goroutines per waiting probe: %.2f held by net/http (want about 2), %.2f parked (want 1)", perProbe[false], perProbe[true])
	}
}

// A probe parked when the server shuts down still answers, and its connection
// closes instead of going back to a server that takes no more.
func TestParkShutdown(t *testing.T) {
	g := &gate{open: make(chan struct{})}
	h := newTestHandler(t, g, nil)
	ts := parkServer(t, h, 0, false)
	c, br := dial(t, ts.Listener.Addr().String())
	io.WriteString(c, "GET "+probePath+" HTTP/1.1\r\nHost: x\r\n\r\n")
	waitUntil(t, "the probe did not start", func() bool { return g.calls.Load() >= 1 })
	// The Parking's listener starts with the first parked probe; Shutdown closes it.
	if err := ts.Config.Shutdown(context.Background()); err != nil {
		t.Fatal(err)
	}
	close(g.open)
	if resp, body := roundTrip(t, c, br, ""); resp.StatusCode != 200 || !strings.Contains(body, `name="late"`) {
		t.Fatalf("status %d, body\n%s", resp.StatusCode, body)
	}
	if n, err := br.Read(make([]byte, 1)); err != io.EOF {
		t.Errorf("connection still open after shutdown: read %d bytes, %v", n, err)
	}
	if n := h.Parking.inFlight.Load(); n != 0 {
		t.Errorf("%d probes still counted in flight", n)
	}
}

// panicky is a querier with a bug.
type panicky struct{}

func (panicky) Query(context.Context, protocols.Target, *wire.Trace) (*protocols.Result, error) {
	panic("decoder bug")
}

// A parked probe that panics closes its connection and leaves the exporter up, as
// net/http does for a handler.
func TestParkPanic(t *testing.T) {
	h := newTestHandler(t, panicky{}, nil)
	ts := parkServer(t, h, 0, false)
	var logged strings.Builder
	var mu sync.Mutex
	ts.Config.ErrorLog = log.New(writerFunc(func(p []byte) (int, error) { mu.Lock(); defer mu.Unlock(); return logged.Write(p) }), "", 0)
	_, err := ts.Client().Get(ts.URL + probePath)
	if err == nil {
		t.Fatal("a panicking probe answered")
	}
	if resp, err := ts.Client().Get(ts.URL + "/probe?module=nope&target=127.0.0.1"); err != nil || resp.StatusCode != 400 {
		t.Fatalf("after the panic: %v %v", resp, err)
	}
	mu.Lock()
	defer mu.Unlock()
	if !strings.Contains(logged.String(), "panic serving a parked probe") || !strings.Contains(logged.String(), "decoder bug") {
		t.Errorf("log %q", logged.String())
	}
	if n := h.Parking.inFlight.Load(); n != 0 {
		t.Errorf("%d probes still counted in flight", n)
	}
}

type writerFunc func([]byte) (int, error)

func (f writerFunc) Write(p []byte) (int, error) { return f(p) }

// After its answer the parked goroutine holds the connection until the next
// request: a client that closes never costs net/http a connection, one that asks
// again is served by net/http on the same connection.
func TestParkHandsBackOnNextRequest(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("Windows hands connections back at once (no MSG_PEEK)")
	}
	h := newTestHandler(t, &prototest.FakeQuerier{Result: &protocols.Result{Name: "parked"}}, nil)
	var accepted atomic.Int32 // connections net/http serves: accepted or handed back
	ts := httptest.NewUnstartedServer(h)
	ts.Config.ConnState = func(_ net.Conn, s http.ConnState) {
		if s == http.StateNew {
			accepted.Add(1)
		}
	}
	h.Parking = NewParking(0, ts.Config)
	ts.Start()
	t.Cleanup(func() { ts.Close(); h.Parking.Close() })
	waitIdle := func(n int) {
		t.Helper()
		waitUntil(t, fmt.Sprintf("connections waiting for their next request never were %d", n), func() bool {
			h.Parking.mu.Lock()
			defer h.Parking.mu.Unlock()
			return len(h.Parking.idle) == n
		})
	}
	ask := func(c net.Conn, br *bufio.Reader) {
		t.Helper()
		if resp, body := roundTrip(t, c, br, "GET "+probePath+" HTTP/1.1\r\nHost: x\r\n\r\n"); resp.StatusCode != 200 || !strings.Contains(body, `name="parked"`) {
			t.Fatalf("status %d, body\n%s", resp.StatusCode, body)
		}
	}
	for _, again := range []bool{true, false} {
		before := accepted.Load()
		c, br := dial(t, ts.Listener.Addr().String())
		ask(c, br)
		waitIdle(1) // answered, held by the parked goroutine
		if again {
			ask(c, br) // handed back to net/http, parked again
			if got := accepted.Load() - before; got != 2 {
				t.Errorf("net/http took %d connections for two probes on one, want 2 (accepted, handed back)", got)
			}
			waitIdle(1)
		}
		c.Close()
		waitIdle(0)
		if !again && accepted.Load()-before != 1 {
			t.Errorf("net/http took the connection back after its client closed it")
		}
	}
}

// deadlineConn records the write deadlines set on it and counts what is written.
type deadlineConn struct {
	net.Conn
	deadlines []time.Time
	wrote     int
}

func (c *deadlineConn) SetWriteDeadline(t time.Time) error {
	c.deadlines = append(c.deadlines, t)
	return nil
}

func (c *deadlineConn) Write(b []byte) (int, error) {
	c.wrote += len(b)
	return len(b), nil
}

// A parked probe's answer gets the write deadline every answer gets, sized from
// its length when it is written and cleared after: a client that does not read
// holds the parked probe's goroutine no longer than that.
func TestParkWriteDeadline(t *testing.T) {
	c := &deadlineConn{}
	b := &parked{conn: c, keep: true}
	b.Write(bytes.Repeat([]byte("x"), 1<<20))
	start := time.Now()
	ok := (&Parking{}).write(b)
	end := time.Now()
	if !ok || c.wrote <= 1<<20 || len(c.deadlines) != 2 || !c.deadlines[1].IsZero() {
		t.Fatalf("write: ok %v, %d bytes, deadlines %v; want the answer written within a deadline, then none", ok, c.wrote, c.deadlines)
	}
	if dl := c.deadlines[0]; dl.Before(start.Add(writeBudget(c.wrote))) || dl.After(end.Add(writeBudget(c.wrote))) {
		t.Errorf("deadline %v after the write began, want %v for %d bytes", dl.Sub(start), writeBudget(c.wrote), c.wrote)
	}
}
