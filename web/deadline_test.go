package web

import (
	"bytes"
	"io"
	"net/http"
	"net/http/httptest"
	"strconv"
	"testing"
	"time"

	"github.com/gameserver-exporter/gameserver_exporter/internal/testenv"
	"github.com/gameserver-exporter/gameserver_exporter/protocols/prototest"
)

// deadlineRecorder is a ResponseRecorder with net/http's SetWriteDeadline.
type deadlineRecorder struct {
	*httptest.ResponseRecorder
	deadlines []time.Time
}

func (d *deadlineRecorder) SetWriteDeadline(t time.Time) error {
	d.deadlines = append(d.deadlines, t)
	return nil
}

// Every answer gets a write deadline sized from its length, set when it is
// written: a probe's after the probe, a page's after its render, /sd's from the
// length it declares; WriteDeadlines gives the small answers theirs at the start.
func TestWriteDeadlinesSized(t *testing.T) {
	big := bytes.Repeat([]byte("x"), 4<<20)
	page := http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) { w.Write(big) })
	sd := http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Length", strconv.Itoa(len(big)))
		w.Write(big[:1]) // the first write sets the deadline for the whole length
		w.Write(big[1:])
	})
	h := fastHandler(t)
	for _, tc := range []struct {
		name    string
		handler http.Handler
		url     string
		n       int // the answer's length; -1: the probe's, from the body
	}{
		{"probe", WriteDeadlines(h), probePath, -1},
		{"probe debug", WriteDeadlines(h), probePath + "&debug=true", -1},
		{"page", WriteDeadlines(NewPages(1, time.Second).Limit(page)), "/", len(big)},
		{"sd", WriteDeadlines(NewPages(1, time.Second).Hold(sd)), "/sd", len(big)},
		{"small", WriteDeadlines(http.NotFoundHandler()), "/nothing", 0},
	} {
		rec := &deadlineRecorder{ResponseRecorder: httptest.NewRecorder()}
		req := httptest.NewRequest("GET", tc.url, nil)
		req.RemoteAddr, req.Host = "127.0.0.1:40000", "localhost:10115"
		start := time.Now()
		tc.handler.ServeHTTP(rec, req)
		end := time.Now()
		n := tc.n
		if n < 0 {
			n = rec.Body.Len()
		}
		if len(rec.deadlines) == 0 {
			t.Errorf("%s: no write deadline", tc.name)
		} else if last := rec.deadlines[len(rec.deadlines)-1]; last.Before(start.Add(writeBudget(n))) || last.After(end.Add(writeBudget(n))) {
			t.Errorf("%s: deadline %v after the start, want %v for %d bytes", tc.name, last.Sub(start), writeBudget(n), n)
		}
		if rec.Code != http.StatusOK && tc.name != "small" {
			t.Errorf("%s: %d", tc.name, rec.Code)
		}
	}
	// The profiler writes after sampling for as long as it was asked.
	rec := &deadlineRecorder{ResponseRecorder: httptest.NewRecorder()}
	WriteDeadlines(Unbounded(http.NotFoundHandler())).ServeHTTP(rec, httptest.NewRequest("GET", "/debug/pprof/profile", nil))
	if n := len(rec.deadlines); n != 2 || !rec.deadlines[1].IsZero() {
		t.Errorf("Unbounded: deadlines %v, want the start's, then none", rec.deadlines)
	}
	if got := writeBudget(40 << 10); got < writeBase || got > writeBase+time.Second {
		t.Errorf("a 40 KiB page's budget %v", got)
	}
	if got := writeBudget(100 << 20); got < writeBase+time.Duration(100<<20/writeRate)*time.Second*99/100 {
		t.Errorf("100 MiB in %v", got)
	}
}

// A page whose client does not read gives its turn back once rendered (hostile
// round H1: eight such clients held every turn, and /metrics answered 503); Hold
// (/sd: the turns bound the answers stalled clients keep alive) keeps it while
// writing: past the turns a request waits, then gets 503, until the client goes.
func TestTurnWhileWriting(t *testing.T) {
	big := bytes.Repeat([]byte("x"), 16<<20) // past any socket buffers
	for _, hold := range []bool{false, true} {
		pages, writing := NewPages(1, 200*time.Millisecond), make(chan struct{}, 1)
		h := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			if r.URL.Query().Get("stall") == "" {
				io.WriteString(w, "small\n")
				return
			}
			w.Header().Set("Content-Length", strconv.Itoa(len(big)))
			writing <- struct{}{}
			w.Write(big)
		})
		ts := httptest.NewUnstartedServer(nil)
		ts.Config = NewServer(map[bool]http.Handler{false: pages.Limit(h), true: pages.Hold(h)}[hold]) // as main serves
		ts.Start()
		t.Cleanup(ts.Close) // after the stalled client's own: Close waits for its answer
		c := prototest.StalledClient(t, ts.Listener.Addr().String(), "GET /?stall=1 HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
		<-writing
		time.Sleep(100 * time.Millisecond) // the write is under way, and stuck
		if _, status := testenv.HTTPOK(http.DefaultClient, ts.URL); status != map[bool]string{false: "200 OK", true: "503 Service Unavailable"}[hold] {
			t.Fatalf("hold %v: a page while another's client does not read: %s", hold, status)
		}
		c.Close() // the server's write fails, and the turn comes back
		waitUntil(t, "the turn after the stalled client left", func() bool { ok, _ := testenv.HTTPOK(http.DefaultClient, ts.URL); return ok })
	}
}

func TestServerLimits(t *testing.T) {
	s := NewServer(http.NotFoundHandler())
	if s.ReadTimeout <= 0 || s.ReadTimeout > 40*time.Second || s.IdleTimeout <= 60*time.Second || s.IdleTimeout > 5*time.Minute ||
		s.ReadHeaderTimeout <= 0 || s.MaxHeaderBytes <= 0 || s.MaxHeaderBytes > 1<<20 {
		t.Errorf("limits: read %s, idle %s, header %s, %d header bytes", s.ReadTimeout, s.IdleTimeout, s.ReadHeaderTimeout, s.MaxHeaderBytes)
	}
}
