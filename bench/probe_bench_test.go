// Package bench_test benchmarks the whole /probe path in process: HTTP request in,
// module lookup, A2S_INFO with the S2C_CHALLENGE round trip over loopback UDP,
// metric families, exposition out. It is what bench/run.sh measures with wrk, minus
// the HTTP server and the load generator, so its CPU and memory profiles show where
// a probe's time goes:
//
//	go test -run '^$' -bench Probe -benchmem -cpuprofile cpu.prof -memprofile mem.prof ./bench/
//	go tool pprof -top bench.test cpu.prof
package bench_test

import (
	"bytes"
	"encoding/binary"
	"errors"
	"io"
	"log/slog"
	"net"
	"net/http"
	"net/http/httptest"
	"testing"
	"time"

	"github.com/prometheus/client_golang/prometheus"

	"github.com/gameserver-exporter/gameserver_exporter/collector"
	"github.com/gameserver-exporter/gameserver_exporter/config"
	"github.com/gameserver-exporter/gameserver_exporter/web"
)

// fakeA2S is a loopback A2S server that demands the S2C_CHALLENGE round trip, like
// every Source server since 2020: the 25-byte A2S_INFO gets FF FF FF FF 41 + a
// challenge, the 29-byte one carrying that challenge gets the 0x49 info reply.
type fakeA2S struct {
	pc   *net.UDPConn
	info []byte
}

var infoQuery = []byte("\xFF\xFF\xFF\xFFTSource Engine Query\x00")

const challenge = 0x1d2c3b4a

func startFakeA2S(tb testing.TB) string {
	tb.Helper()
	pc, err := net.ListenUDP("udp", &net.UDPAddr{IP: net.IPv4(127, 0, 0, 1)})
	if err != nil {
		tb.Fatal(err)
	}
	f := &fakeA2S{pc: pc, info: infoReply()}
	done := make(chan struct{})
	go func() { defer close(done); f.serve() }()
	tb.Cleanup(func() { pc.Close(); <-done })
	return pc.LocalAddr().String()
}

func (f *fakeA2S) serve() {
	chal := []byte{0xFF, 0xFF, 0xFF, 0xFF, 0x41, 0, 0, 0, 0}
	binary.LittleEndian.PutUint32(chal[5:], challenge)
	buf := make([]byte, 1500)
	for {
		n, from, err := f.pc.ReadFromUDPAddrPort(buf)
		if errors.Is(err, net.ErrClosed) {
			return
		} else if err != nil {
			continue
		}
		req := buf[:n]
		if !bytes.HasPrefix(req, infoQuery) {
			continue
		}
		out := chal
		if n == len(infoQuery)+4 && binary.LittleEndian.Uint32(req[len(infoQuery):]) == challenge {
			out = f.info
		}
		f.pc.WriteToUDPAddrPort(out, from)
	}
}

func cstring(b []byte, s string) []byte { return append(append(b, s...), 0) }

// infoReply is a Source A2S_INFO reply like a CS2 server's.
func infoReply() []byte {
	b := []byte{0xFF, 0xFF, 0xFF, 0xFF, 0x49, 17}
	b = cstring(b, "bench A2S server")
	b = cstring(b, "de_dust2")
	b = cstring(b, "csgo")
	b = cstring(b, "Counter-Strike 2")
	b = binary.LittleEndian.AppendUint16(b, 730)
	b = append(b, 12, 32, 0, 'd', 'l', 0, 1)
	b = cstring(b, "1.40.9.1")
	b = append(b, 0x80)
	return binary.LittleEndian.AppendUint16(b, 27015)
}

// newHandler is the exporter's /probe handler with the built-in modules, set up as
// main.go does, with nothing cached between probes (MinInterval 0).
func newHandler(tb testing.TB) *web.ProbeHandler {
	tb.Helper()
	sc := config.NewSafeConfig("")
	if err := sc.Reload(); err != nil {
		tb.Fatal(err)
	}
	return &web.ProbeHandler{
		Runner: &collector.Runner{
			Config:        sc,
			Logger:        slog.New(slog.NewTextHandler(io.Discard, nil)),
			Metrics:       collector.NewMetrics(prometheus.NewRegistry()),
			TimeoutOffset: 500 * time.Millisecond,
			MaxConcurrent: 4096,
			MinInterval:   0,
		},
		History: web.NewHistory(100),
	}
}

var success = []byte("\nprobe_success 1\n")

// serve runs one /probe request through h. The request is built once per benchmark
// (the handler only reads it), so the profile shows the handler, not httptest.
func serve(h *web.ProbeHandler, r *http.Request) *httptest.ResponseRecorder {
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, r)
	return rec
}

func probeRequest(addr string) *http.Request {
	return httptest.NewRequest(http.MethodGet, "/probe?module=a2s&target="+addr, nil)
}

// TestProbeFakeServer checks the benchmark's setup: a probe of the fake server
// succeeds and really went through the challenge.
func TestProbeFakeServer(t *testing.T) {
	h := newHandler(t)
	rec := serve(h, probeRequest(startFakeA2S(t)))
	body := rec.Body.Bytes()
	if rec.Code != 200 || !bytes.Contains(body, success) {
		t.Fatalf("probe failed: HTTP %d\n%s", rec.Code, body)
	}
	for _, want := range []string{`gameserver_query_phase_success{phase="challenge"} 1`, "gameserver_players 12", "gameserver_players_max 32"} {
		if !bytes.Contains(body, []byte(want)) {
			t.Errorf("missing %q in\n%s", want, body)
		}
	}
}

// BenchmarkProbe is one /probe after another against one fake server: with
// MinInterval 0 every request runs a real query.
func BenchmarkProbe(b *testing.B) {
	h := newHandler(b)
	r := probeRequest(startFakeA2S(b))
	b.ReportAllocs()
	for b.Loop() {
		if rec := serve(h, r); !bytes.Contains(rec.Body.Bytes(), success) {
			b.Fatalf("probe failed:\n%s", rec.Body.Bytes())
		}
	}
}

// BenchmarkProbeParallel runs probes from GOMAXPROCS goroutines over 64 fake servers,
// so lock contention in the handler (flight map, limiter, history, metrics) shows.
func BenchmarkProbeParallel(b *testing.B) {
	h := newHandler(b)
	addrs := make([]string, 64)
	for i := range addrs {
		addrs[i] = startFakeA2S(b)
	}
	b.ReportAllocs()
	b.ResetTimer()
	b.RunParallel(func(pb *testing.PB) {
		reqs := make([]*http.Request, len(addrs))
		for i, a := range addrs {
			reqs[i] = probeRequest(a)
		}
		i := 0
		for pb.Next() {
			i++
			if rec := serve(h, reqs[i%len(reqs)]); !bytes.Contains(rec.Body.Bytes(), success) {
				b.Errorf("probe failed:\n%s", rec.Body.Bytes())
				return
			}
		}
	})
}

// BenchmarkProbeCached serves every probe but the first from the result cache
// (MinInterval of an hour): what is left is the handler's own work per request
// (parsing, metric families, exposition, history, self-metrics), without the query.
func BenchmarkProbeCached(b *testing.B) {
	h := newHandler(b)
	h.Runner.MinInterval = time.Hour
	r := probeRequest(startFakeA2S(b))
	b.ReportAllocs()
	for b.Loop() {
		if rec := serve(h, r); !bytes.Contains(rec.Body.Bytes(), success) {
			b.Fatalf("probe failed:\n%s", rec.Body.Bytes())
		}
	}
}
