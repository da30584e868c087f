package hostile

import (
	"context"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/promhttp"

	"github.com/gameserver-exporter/gameserver_exporter/config"
	"github.com/gameserver-exporter/gameserver_exporter/discovery"
	"github.com/gameserver-exporter/gameserver_exporter/internal/testenv"
	"github.com/gameserver-exporter/gameserver_exporter/protocols/prototest"
	"github.com/gameserver-exporter/gameserver_exporter/web"
)

// smallSendBuffer is a listener whose connections send through 64 KiB socket
// buffers: a client that does not read stalls its answers after 64 KiB rather
// than after the 4 MiB Linux grows a loopback socket's buffer to, which under
// -race takes hundreds of renders.
type smallSendBuffer struct{ net.Listener }

func (l smallSendBuffer) Accept() (net.Conn, error) {
	c, err := l.Listener.Accept()
	if err == nil {
		c.(*net.TCPConn).SetWriteBuffer(64 << 10)
	}
	return c, err
}

// serveStalled serves h as main does (web.NewServer, bodies refused) on loopback
// and counts the connections it closed.
func serveStalled(t *testing.T, h http.Handler) (addr string, closed *atomic.Int64) {
	t.Helper()
	tl, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	l := smallSendBuffer{tl}
	closed = new(atomic.Int64)
	srv := web.NewServer(web.RefuseBodies(h))
	srv.ConnState = func(_ net.Conn, s http.ConnState) {
		if s == http.StateClosed {
			closed.Add(1)
		}
	}
	go srv.Serve(l)
	t.Cleanup(func() { srv.Close() })
	return l.Addr().String(), closed
}

// settled waits until n stops changing for a while (every stalled connection
// is stuck in a write) and returns its value.
func settled(t *testing.T, n *atomic.Int64, least int64) int64 {
	t.Helper()
	deadline := time.Now().Add(loadBarrier)
	last, since := n.Load(), time.Now()
	for time.Now().Before(deadline) {
		time.Sleep(50 * time.Millisecond)
		if v := n.Load(); v != last {
			last, since = v, time.Now()
		} else if v >= least && time.Since(since) > 500*time.Millisecond {
			return v
		}
	}
	t.Fatalf("still moving after %v: %d", loadBarrier, n.Load())
	return 0
}

// timedGet is the fastest of three GETs of url, and the last status.
func timedGet(t *testing.T, url string) (time.Duration, int) {
	t.Helper()
	client := &http.Client{Timeout: time.Minute}
	fastest, code := time.Hour, 0
	for range 3 {
		start := time.Now()
		resp, err := client.Get(url)
		if err != nil {
			t.Fatal(err)
		}
		io.Copy(io.Discard, resp.Body)
		resp.Body.Close()
		fastest, code = min(fastest, time.Since(start)), resp.StatusCode
	}
	return fastest, code
}

// TestLoadStalledPages is hostile round H1: eight connections pipeline 600
// requests for the status page each with a 4 KiB receive buffer and never read.
// Pages render eight at a time; a turn held while its answer was written left
// /metrics and / answering 503 for as long as the clients stayed. Now the
// exporter's /metrics answers within a second (the fastest of three: judged
// generously, the machine is busy), the status page too, and the stalled
// connections are closed at their write deadline.
func TestLoadStalledPages(t *testing.T) {
	testenv.LoadTest(t)
	sc := newHandler(t, "", 0, 0).Runner.Config // the built-in modules: a status page of ~40 KB
	reg := prometheus.NewRegistry()
	pages := web.NewPages(web.DefaultPageLimit, web.DefaultPageWait)
	var renders atomic.Int64
	status := web.StatusPage(sc, web.NewHistory(16), web.PageOptions{Name: "gameserver_exporter"})
	mux := http.NewServeMux()
	mux.Handle("/metrics", pages.Limit(promhttp.HandlerFor(reg, promhttp.HandlerOpts{Registry: reg})))
	mux.Handle("/", pages.Limit(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		renders.Add(1)
		status.ServeHTTP(w, r)
	})))
	addr, closed := serveStalled(t, mux)
	base := "http://" + addr

	resp, err := http.Get(base + "/")
	if err != nil {
		t.Fatal(err)
	}
	page, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	renders.Store(0)
	closed.Store(0)

	const stalled = web.DefaultPageLimit
	req := strings.Repeat("GET / HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n", 600)
	for range stalled {
		prototest.StalledClient(t, addr, req)
	}
	n := settled(t, &renders, stalled)
	stuck := time.Now()
	t.Logf("status page %d bytes; %d renders before all %d connections stalled", len(page), n, stalled)

	for _, path := range []string{"/metrics", "/"} {
		took, code := timedGet(t, base+path)
		t.Logf("%s: %d in %v", path, code, took)
		if code != 200 || took > time.Second {
			t.Errorf("%s with %d stalled readers: %d after %v, want 200 within 1s", path, stalled, code, took)
		}
	}

	// Each stalled write ends at its deadline (10 s and a fraction for ~40 KB),
	// and its connection with it.
	testenv.WaitEvery(t, 100*time.Millisecond, 30*time.Second, "the stalled connections to close", func() (bool, string) {
		return closed.Load() >= stalled, fmt.Sprintf("%d of %d closed", closed.Load(), stalled)
	})
	t.Logf("stalled connections closed %v after they stalled", time.Since(stuck).Round(100*time.Millisecond))
}

// TestLoadStalledSD is hostile round M1: clients of /sd that never read, three
// after each refresh of a 100,000-entry source (20,000 here), pinned each refresh's snapshot
// (the live heap grew ~23 MB a refresh). Now every reader of a refresh shares its
// one encoded answer, at most a turn's worth of readers (4 here) hold one while
// writing, and the others wait their turn and are answered 503: the live heap stays
// under its baseline plus four answers (and one for slack).
func TestLoadStalledSD(t *testing.T) {
	testenv.LoadTest(t)
	const entries, rounds, perRound, turns = 20000, 5, 3, 4
	path := filepath.Join(t.TempDir(), "targets.txt")
	write := func(round int) {
		var b strings.Builder
		for i := range entries {
			fmt.Fprintf(&b, "10.%d.%d.%d:%d\n", i>>16, (i>>8)&0xff, i&0xff, 27015+round)
		}
		if err := os.WriteFile(path, []byte(b.String()), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	write(0)
	cfg, err := config.Parse(fmt.Appendf(nil, "discovery:\n  big: {type: file, path: %s, module: a2s, refresh: 10m, max_targets: %d}\n", path, entries))
	if err != nil {
		t.Fatal(err)
	}
	m := discovery.NewManager(nil)
	m.Apply(cfg.Discovery)
	t.Cleanup(m.Stop)
	if _, err := m.Refresh(context.Background(), "big"); err != nil {
		t.Fatal(err)
	}
	var answers atomic.Int64
	sd := m.SDHandler()
	mux := http.NewServeMux()
	mux.Handle("/sd", web.NewPages(turns, 300*time.Millisecond).Hold(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		answers.Add(1)
		sd.ServeHTTP(w, r)
	})))
	addr, _ := serveStalled(t, mux)

	resp, err := http.Get("http://" + addr + "/sd?source=big")
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != 200 || strings.Count(string(body), `"targets"`) != entries {
		t.Fatalf("/sd: %s, %d bytes", resp.Status, len(body))
	}
	size := uint64(len(body)) // body is dead past here: the GC below does not count it
	heap0 := prototest.HeapAfterGC()

	busy := 0
	for round := 1; round <= rounds; round++ {
		write(round)
		if _, err := m.Refresh(context.Background(), "big"); err != nil {
			t.Fatal(err)
		}
		for range perRound {
			prototest.StalledClient(t, addr, "GET /sd?source=big HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
		}
		settled(t, &answers, int64(min(round*perRound, turns)+1))
		// A reader past the turns is answered 503 after the wait (its answer is
		// small: it is written), so the busy count goes by the turns.
		time.Sleep(400 * time.Millisecond)
		busy = min(round*perRound, turns)
	}
	heap1 := prototest.HeapAfterGC()
	grew := int64(heap1) - int64(heap0)
	t.Logf("/sd answer %d KiB; live heap %d -> %d MiB (%+d MiB) with %d readers stalled, %d holding a turn",
		size>>10, heap0>>20, heap1>>20, grew>>20, rounds*perRound, busy)
	if limit := int64((turns + 1) * size); grew > limit {
		t.Errorf("live heap grew %d MiB over %d refreshes with stalled /sd readers, bound %d MiB (%d answers of %d KiB)",
			grew>>20, rounds, limit>>20, turns, size>>10)
	}
}
