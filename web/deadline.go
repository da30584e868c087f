package web

import (
	"net/http"
	"strconv"
	"time"
)

// Write deadlines. Every answer must be taken by its client within writeBase plus
// one second per writeRate bytes from when it is written, or its connection is
// closed: a client that never reads holds its connection's goroutine and its answer
// that long, and nothing shared but, for /sd, one of its turns (Pages.Hold).
// Prometheus reads a scrape's answer at once; 256 KiB/s is a slow WAN link.
const (
	writeBase = 10 * time.Second
	writeRate = 256 << 10
)

// writeBudget is the time allowed to write n bytes.
func writeBudget(n int) time.Duration { return writeBase + byteTime(n) }

// byteTime is the time n bytes take at writeRate.
func byteTime(n int) time.Duration { return time.Duration(n) * (time.Second / writeRate) }

// writeDeadliner is what net/http's ResponseWriter offers ResponseController.
type writeDeadliner interface{ SetWriteDeadline(time.Time) error }

// writeWithin makes w's connection take n bytes from now within writeBudget(n).
// http.ResponseController would do, but allocates an error for a writer without
// deadlines (the fast path's, a test's recorder) on every call.
func writeWithin(w http.ResponseWriter, n int) {
	for {
		switch x := w.(type) {
		case writeDeadliner:
			x.SetWriteDeadline(time.Now().Add(writeBudget(n)))
			return
		case interface{ Unwrap() http.ResponseWriter }:
			w = x.Unwrap()
		default:
			return
		}
	}
}

// WriteDeadlines gives every answer of h a write deadline: writeBudget of a
// small answer from the request's start, which the handlers that write later or
// more (a probe, a page, /sd, a reload) move when they write. net/http keeps a
// connection's write deadline across its requests (the server has no
// WriteTimeout: a probe may take minutes before it writes), so each request sets
// its own.
func WriteDeadlines(h http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		writeWithin(w, 0)
		h.ServeHTTP(w, r)
	})
}

// Unbounded lifts the write deadline for h: the profiler, which writes after
// sampling for as long as it was asked (operator-only, --web.enable-pprof).
func Unbounded(h http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if d, ok := w.(writeDeadliner); ok {
			d.SetWriteDeadline(time.Time{})
		}
		h.ServeHTTP(w, r)
	})
}

// bufferedAnswer keeps a handler's answer (status and body; headers go to the
// real writer's map, which nothing sends before the body) until it is written
// out with writeOut: a page renders under its turn and is written after it.
type bufferedAnswer struct {
	w    http.ResponseWriter
	code int
	body []byte
}

func (b *bufferedAnswer) Header() http.Header { return b.w.Header() }

func (b *bufferedAnswer) WriteHeader(code int) {
	if b.code == 0 {
		b.code = code
	}
}

func (b *bufferedAnswer) Write(p []byte) (int, error) {
	b.WriteHeader(http.StatusOK)
	b.body = append(b.body, p...)
	return len(p), nil
}

// writeOut writes the kept answer within its write budget, with its length (no
// chunking: one write).
func (b *bufferedAnswer) writeOut() {
	if b.code == 0 {
		return // the handler wrote nothing: net/http answers 200, empty
	}
	writeWithin(b.w, len(b.body))
	if h := b.w.Header(); h.Get("Content-Length") == "" && b.code != http.StatusNoContent && b.code != http.StatusNotModified {
		h.Set("Content-Length", strconv.Itoa(len(b.body)))
	}
	b.w.WriteHeader(b.code)
	b.w.Write(b.body)
}

// sizedWriter sets its connection's write deadline at the first write, from the
// answer's Content-Length (or the first write's length without one).
type sizedWriter struct {
	http.ResponseWriter
	set bool
}

func (s *sizedWriter) Write(p []byte) (int, error) {
	if !s.set {
		s.set = true
		n, err := strconv.Atoi(s.Header().Get("Content-Length"))
		if err != nil {
			n = len(p)
		}
		writeWithin(s.ResponseWriter, n)
	}
	return s.ResponseWriter.Write(p)
}

func (s *sizedWriter) Unwrap() http.ResponseWriter { return s.ResponseWriter }
