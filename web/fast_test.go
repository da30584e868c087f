package web

import (
	"bufio"
	"bytes"
	"errors"
	"io"
	"net"
	"net/http"
	"slices"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/gameserver-exporter/gameserver_exporter/protocols"
	"github.com/gameserver-exporter/gameserver_exporter/protocols/prototest"
)

// fastServer serves h behind a FastListener, net/http behind it (/probe: h, /other:
// a page); slow counts the requests net/http served.
func fastServer(t *testing.T, h *ProbeHandler, setup ...func(*FastListener)) (f *FastListener, addr string, slow *atomic.Int64) {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	slow = new(atomic.Int64)
	mux := http.NewServeMux()
	mux.Handle("/probe", h)
	mux.HandleFunc("/other", func(w http.ResponseWriter, _ *http.Request) { io.WriteString(w, "other page\n") })
	srv := NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		slow.Add(1)
		RefuseBodies(mux).ServeHTTP(w, r)
	}))
	f = NewFastListener(l, h)
	for _, set := range setup {
		set(f) // before any connection is served
	}
	go srv.Serve(f)
	t.Cleanup(func() { srv.Close(); f.Close() })
	return f, l.Addr().String(), slow
}

func fastHandler(t *testing.T) *ProbeHandler {
	return newTestHandler(t, &prototest.FakeQuerier{Result: &protocols.Result{Name: "fast", Players: protocols.Known(3)}}, nil)
}

// roundTrip writes raw on c and reads one response.
func roundTrip(t *testing.T, c net.Conn, br *bufio.Reader, raw string) (*http.Response, string) {
	t.Helper()
	if _, err := io.WriteString(c, raw); err != nil {
		t.Fatal(err)
	}
	resp, err := http.ReadResponse(br, nil)
	if err != nil {
		t.Fatalf("%q: %v", raw, err)
	}
	body, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	return resp, string(body)
}

func dial(t *testing.T, addr string) (net.Conn, *bufio.Reader) {
	t.Helper()
	c, err := net.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	c.SetDeadline(time.Now().Add(30 * time.Second))
	return c, bufio.NewReader(c)
}

const scrape = "GET " + probePath + " HTTP/1.1\r\nHost: exporter:9115\r\nUser-Agent: Prometheus/3.5.0\r\n" +
	"Accept: application/openmetrics-text;version=1.0.0;q=0.5,text/plain;version=0.0.4;q=0.3,*/*;q=0.1\r\n" +
	"Accept-Encoding: gzip\r\nX-Prometheus-Scrape-Timeout-Seconds: 10\r\n\r\n"

// Prometheus' scrapes are answered by the fast path, on one kept connection, with
// the answer net/http gives the same request (Date aside), until another page.
func TestFastProbe(t *testing.T) {
	h := fastHandler(t)
	_, addr, slow := fastServer(t, h)
	c, br := dial(t, addr)
	for range 3 {
		resp, body := roundTrip(t, c, br, scrape)
		if resp.StatusCode != 200 || !strings.Contains(body, "probe_success 1") || resp.Close {
			t.Fatalf("%d close=%v\n%s", resp.StatusCode, resp.Close, body)
		}
	}
	if n := slow.Load(); n != 0 {
		t.Fatalf("net/http served %d of the scrapes", n)
	}
	// The same request through net/http: same status, headers and body.
	want, wantBody := roundTrip(t, c, br, strings.Replace(scrape, "GET /probe?", "GET /probe?x=1&", 1))
	if slow.Load() != 0 {
		t.Fatal("an extra parameter left the fast path")
	}
	// Then another page, pipelined: net/http takes the connection over.
	if _, body := roundTrip(t, c, br, scrape+"GET /other HTTP/1.1\r\nHost: x\r\n\r\n"); !strings.Contains(body, "probe_success 1") {
		t.Fatalf("the probe:\n%s", body)
	}
	if _, body := roundTrip(t, c, br, ""); !strings.Contains(body, "other page") || slow.Load() != 1 {
		t.Fatalf("net/http served %d requests, want the one for /other:\n%s", slow.Load(), body)
	}
	req, _ := http.NewRequest("GET", "http://"+addr+probePath, nil)
	req.Header.Set("Accept", "application/openmetrics-text;version=1.0.0;q=0.5,text/plain;version=0.0.4;q=0.3,*/*;q=0.1")
	req.Header.Set("X-Prometheus-Scrape-Timeout-Seconds", "10")
	req.Header.Set("Connection", "close") // net/http's own answer: see the hand-off test
	got, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	gotBody, _ := io.ReadAll(got.Body)
	got.Body.Close()
	if got.Header.Get("Content-Type") != want.Header.Get("Content-Type") || want.ContentLength != int64(len(wantBody)) {
		t.Errorf("fast %v (%d bytes), net/http %v", want.Header, len(wantBody), got.Header)
	}
	if len(gotBody) == 0 || want.Header.Get("Date") == "" || strings.Count(wantBody, "\n") != strings.Count(string(gotBody), "\n") {
		t.Errorf("fast body:\n%s\nnet/http body:\n%s", wantBody, gotBody)
	}
}

// Every request the fast path does not answer exactly as net/http would goes to
// net/http with the bytes already read, on the same connection.
func TestFastHandsOff(t *testing.T) {
	long := "GET " + probePath + " HTTP/1.1\r\nHost: x\r\nX-Long: " + strings.Repeat("a", 5000) + "\r\n\r\n"
	for _, tc := range []struct {
		name, raw string
		status    int
		body      string
	}{
		{"another page", "GET /other HTTP/1.1\r\nHost: x\r\n\r\n", 200, "other page"},
		{"HTTP/1.0", "GET " + probePath + " HTTP/1.0\r\n\r\n", 200, "probe_success 1"},
		{"POST", "POST " + probePath + " HTTP/1.1\r\nHost: x\r\nContent-Length: 0\r\n\r\n", 200, "probe_success 1"},
		{"a body", "GET " + probePath + " HTTP/1.1\r\nHost: x\r\nContent-Length: 5\r\n\r\nhello", 413, "no request body"},
		{"chunked", "GET " + probePath + " HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n", 413, "no request body"},
		{"no Host", "GET " + probePath + " HTTP/1.1\r\n\r\n", 400, ""},
		{"two Hosts", "GET " + probePath + " HTTP/1.1\r\nHost: x\r\nHost: y\r\n\r\n", 400, ""},
		{"Host with a space", "GET " + probePath + " HTTP/1.1\r\nHost: a b\r\n\r\n", 400, ""},
		{"Host with markup", "GET " + probePath + " HTTP/1.1\r\nHost: <script>\r\n\r\n", 400, ""},
		{"Host not ASCII", "GET " + probePath + " HTTP/1.1\r\nHost: \xc3\xa9\r\n\r\n", 400, ""},
		{"bare LF", "GET " + probePath + " HTTP/1.1\nHost: x\n\n", 200, "probe_success 1"}, // at once, not after the header timeout
		{"bare LF ending", "GET " + probePath + " HTTP/1.1\r\nHost: x\r\n\n", 200, "probe_success 1"},
		{"folded header", "GET " + probePath + " HTTP/1.1\r\nHost: x\r\nX-A: b\r\n c\r\n\r\n", 200, "probe_success 1"},
		{"debug output", "GET " + probePath + "&debug=true HTTP/1.1\r\nHost: localhost\r\n\r\n", 200, "Logs for the probe"},
		{"bad query", "GET /probe?module=%zz HTTP/1.1\r\nHost: x\r\n\r\n", 400, "invalid query"},
		{"header block past 4 KiB", long, 200, "probe_success 1"},
		{"upgrade", "GET " + probePath + " HTTP/1.1\r\nHost: x\r\nConnection: Upgrade\r\nUpgrade: h2c\r\n\r\n", 200, "probe_success 1"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			h := fastHandler(t)
			_, addr, slow := fastServer(t, h)
			c, br := dial(t, addr)
			resp, body := roundTrip(t, c, br, tc.raw)
			if resp.StatusCode != tc.status || !strings.Contains(body, tc.body) {
				t.Fatalf("%d, want %d with %q:\n%s", resp.StatusCode, tc.status, tc.body, body)
			}
			if slow.Load() == 0 && tc.status != 400 {
				t.Fatal("answered by the fast path")
			}
		})
	}
}

// Connection: close is honoured; half a header block, or nothing, is cut off at
// the header timeout; Close ends idle connections and the listener.
func TestFastConnectionEnds(t *testing.T) {
	f, addr, _ := fastServer(t, fastHandler(t), func(f *FastListener) { f.headerTimeout = 200 * time.Millisecond })

	c, br := dial(t, addr)
	resp, _ := roundTrip(t, c, br, strings.Replace(scrape, "\r\n\r\n", "\r\nConnection: close\r\n\r\n", 1))
	if !resp.Close {
		t.Fatal("no Connection: close in the answer")
	}
	if _, err := br.ReadByte(); !errors.Is(err, io.EOF) {
		t.Fatalf("connection still open: %v", err)
	}

	for _, partial := range []string{"", "GET /probe?module=fake HTTP/1.1\r\nHost: x\r\n"} {
		c, br := dial(t, addr)
		io.WriteString(c, partial)
		if _, err := br.ReadByte(); err == nil {
			t.Fatalf("%q: an answer to half a request", partial)
		}
	}

	idle, ibr := dial(t, addr)
	roundTrip(t, idle, ibr, scrape)
	f.Close()
	if _, err := ibr.ReadByte(); err == nil {
		t.Fatal("an idle connection outlived Close")
	}
	if _, err := f.Accept(); !errors.Is(err, net.ErrClosed) {
		t.Fatalf("Accept after Close: %v", err)
	}
}

func TestParseProbe(t *testing.T) {
	for _, tc := range []struct {
		head       string
		keep, ok   bool
		module, to string
	}{
		{"GET /probe?module=a2s&target=1.2.3.4 HTTP/1.1\r\nHost: x\r\nX-Prometheus-Scrape-Timeout-Seconds: 9.5\r\n", true, true, "a2s", "9.5"},
		{"GET /probe?module=a2s HTTP/1.1\r\nhOsT: x\r\nconnection: keep-alive, Close\r\n", false, true, "a2s", ""},
		{"GET /probe?module=a2s HTTP/1.1\r\nHost: x\r\nContent-Length: 0\r\n", true, true, "a2s", ""},
		{"GET /probe?module=a2s HTTP/1.1\r\nHost: x\r\nConnection: TE\r\n", false, false, "", ""},
		{"GET /probe?module=a2s HTTP/1.1\r\nHost: x\r\nExpect: 100-continue\r\n", false, false, "", ""},
		{"GET /probe?module=a\x01 HTTP/1.1\r\nHost: x\r\n", false, false, "", ""},
		{"GET /probe?module=a2s HTTP/1.1\r\nHost: x\r\nX-Bad\x00: y\r\n", false, false, "", ""},
		{"GET /probe?module=a2s HTTP/1.1\r\nHost: x\r\nX-Bad: y\x00\r\n", false, false, "", ""},
		{"GET /probe?module=a2s HTTP/1.1\r\nHost: x\r\nNoColon\r\n", false, false, "", ""},
		{"GET /probe?module=a2s&module=b HTTP/1.1\r\nHost: x\r\n", false, false, "", ""},
		{"GET /probes?module=a2s HTTP/1.1\r\nHost: x\r\n", false, false, "", ""},
		{"GET /probe?module=a2s HTTP/1.1 \r\nHost: x\r\n", false, false, "", ""},
		{"GET /probe?module=a2s HTTP/1.1\r\nHost: a b\r\n", false, false, "", ""},
		{"GET /probe?module=a2s HTTP/1.1\r\nHost: <script>\r\n", false, false, "", ""},
		{"GET /probe?module=a2s HTTP/1.1\r\nHost: \xc3\xa9\r\n", false, false, "", ""},
		{"GET /probe?module=a2s HTTP/1.1\r\nHost: [::1]:9115\r\n", true, true, "a2s", ""},
	} {
		pr, keep, ok := parseProbe([]byte(tc.head))
		if ok != tc.ok || ok && (keep != tc.keep || pr.module != tc.module || pr.scrapeTimeout != tc.to) {
			t.Errorf("%q: %+v keep=%v ok=%v", tc.head, pr, keep, ok)
		}
	}
}

// FuzzParseProbe: where net/http reads a request, the fast path takes it (read
// alike) or hands it over, never waiting for more; what it takes, net/http accepts.
func FuzzParseProbe(f *testing.F) {
	f.Add([]byte(scrape))
	f.Fuzz(func(t *testing.T, data []byte) {
		n, other := headEnd(data)
		req, err := http.ReadRequest(bufio.NewReader(bytes.NewReader(data)))
		if n < 0 {
			// The fast path waits for more, or hands over. Waiting is right only
			// where net/http waits too: a request it reads from a stream ends with
			// the LF of its empty line.
			if err == nil && !other && bytes.HasSuffix(data, []byte("\n")) {
				t.Fatalf("net/http reads a request from %q, the fast path waits for more", data)
			}
			return
		}
		pr, _, ok := parseProbe(data[:n-2])
		if !ok {
			return
		}
		if err != nil {
			t.Fatalf("fast path took %q, net/http refuses it: %v", data[:n], err)
		}
		q := req.URL.Query()
		if req.Method != "GET" || req.URL.Path != "/probe" || q.Get("module") != pr.module || q.Get("target") != pr.target ||
			req.Header.Get("Accept") != pr.accept || req.ContentLength > 0 {
			t.Fatalf("%q: fast %+v, net/http %s %s %v", data[:n], pr, req.Method, req.URL, req.Header)
		}
	})
}

// The fast path's write deadline does not cut net/http's answers once it has the
// connection; an idle connection still ends within its idle timeout.
func TestFastDeadlinesHandedOff(t *testing.T) {
	_, addr, _ := fastServer(t, fastHandler(t), func(f *FastListener) {
		f.writeTimeout, f.idleTimeout = 100*time.Millisecond, 300*time.Millisecond
	})
	c, br := dial(t, addr)
	roundTrip(t, c, br, scrape)
	roundTrip(t, c, br, scrape)
	time.Sleep(200 * time.Millisecond) // the fast path's write deadline has passed
	if resp, body := roundTrip(t, c, br, "GET /other HTTP/1.1\r\nHost: x\r\n\r\n"); resp.StatusCode != 200 || !strings.Contains(body, "other page") {
		t.Fatalf("net/http after the fast path: %s %q", resp.Status, body)
	}

	idle, ibr := dial(t, addr)
	roundTrip(t, idle, ibr, scrape)
	start := time.Now()
	idle.SetReadDeadline(time.Now().Add(10 * time.Second))
	if _, err := ibr.ReadByte(); !errors.Is(err, io.EOF) {
		t.Fatalf("an idle connection: %v, want it closed", err)
	}
	if waited := time.Since(start); waited < 300*time.Millisecond*15/16-50*time.Millisecond {
		t.Fatalf("an idle connection closed after %v, idle timeout 300ms", waited)
	}
}

// fastWriter writes the status line, headers in key order (as net/http does) less
// unsafe values, its own length, date and close, then the body (not for HEAD).
func TestFastWriterAnswer(t *testing.T) {
	for _, headOnly := range []bool{false, true} {
		var w fastWriter
		w.Header().Set("X-B", "2")
		w.Header().Set("Content-Type", "text/plain")
		w.Header().Set("A-Header", "1")
		w.Header().Set("X-Bad", "a\r\nInjected: yes")
		w.Header().Set("Content-Length", "999")
		w.WriteHeader(http.StatusTeapot)
		io.WriteString(&w, "body\n")
		got := string(w.answer(false, headOnly))
		w.release()
		head, body, _ := strings.Cut(got, "\r\n\r\n")
		lines := strings.Split(head, "\r\n")
		want := []string{"HTTP/1.1 418 I'm a teapot", "A-Header: 1", "Content-Type: text/plain", "X-B: 2", "Content-Length: 5"}
		if len(lines) != 7 || !slices.Equal(lines[:5], want) || !strings.HasPrefix(lines[5], "Date: ") || lines[6] != "Connection: close" {
			t.Errorf("head only %v: head\n%s", headOnly, head)
		}
		if wantBody := map[bool]string{false: "body\n", true: ""}[headOnly]; body != wantBody {
			t.Errorf("head only %v: body %q", headOnly, body)
		}
	}
}

// A connection handed to net/http keeps CloseWrite (readConn's embedded net.Conn
// hid it): net/http calls it before closing on an error (431, 400) while the
// client may still send, which a close with bytes unread would reset.
func TestFastHandOffKeepsCloseWrite(t *testing.T) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	f := NewFastListener(l, fastHandler(t))
	defer f.Close()
	c, br := dial(t, l.Addr().String())
	io.WriteString(c, "GET /other HTTP/1.1\r\nHost: x\r\n\r\n")
	handed, err := f.Accept()
	if err != nil {
		t.Fatal(err)
	}
	defer handed.Close()
	cw, ok := handed.(interface{ CloseWrite() error })
	if !ok {
		t.Fatalf("%T handed to net/http has no CloseWrite", handed)
	}
	if err := cw.CloseWrite(); err != nil {
		t.Fatal(err)
	}
	if _, err := br.ReadByte(); !errors.Is(err, io.EOF) {
		t.Fatalf("after CloseWrite: %v, want the end of the stream", err)
	}

	// Through net/http: headers past its limit, the client still sending, get 431.
	_, addr, _ := fastServer(t, fastHandler(t))
	c, br = dial(t, addr)
	go func() {
		io.WriteString(c, "GET "+probePath+" HTTP/1.1\r\nHost: x\r\n")
		line := "X-Filler: " + strings.Repeat("a", 1000) + "\r\n"
		for range 200 { // 200 KB of headers, past net/http's 32 KiB
			if _, err := io.WriteString(c, line); err != nil {
				return // the server closed
			}
		}
	}()
	if resp, _ := roundTrip(t, c, br, ""); resp.StatusCode != http.StatusRequestHeaderFieldsTooLarge {
		t.Fatalf("%s, want 431", resp.Status)
	}
}
