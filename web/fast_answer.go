package web

import (
	"net/http"
	"slices"
	"strconv"
	"sync"
	"sync/atomic"
	"time"
)

// fastWriter is the http.ResponseWriter of the fast path and of parked probes: the
// status line, headers and body go into one buffer, written with one system call.
// The buffer and header map come from a pool when the handler first writes, after
// the probe, and go back once the answer is out: a waiting probe holds neither,
// and a scrape allocates neither.
type fastWriter struct{ b *fastBuf }

type fastBuf struct {
	hdr  http.Header
	code int
	buf  []byte // the answer: status line and headers are put in front of body
	body int    // where the body starts in buf
}

// headRoom is kept free before the body for the status line and headers.
const headRoom = 256

var fastBufs = sync.Pool{New: func() any {
	return &fastBuf{hdr: make(http.Header, 4), buf: make([]byte, headRoom, headRoom+4096)}
}}

func (w *fastWriter) get() *fastBuf {
	if w.b == nil {
		w.b = fastBufs.Get().(*fastBuf)
		clear(w.b.hdr)
		w.b.code, w.b.buf, w.b.body = 0, w.b.buf[:headRoom], headRoom
	}
	return w.b
}

// release gives the buffer back (one grown past 64 KiB is dropped).
func (w *fastWriter) release() {
	if w.b != nil && cap(w.b.buf) <= 64<<10 {
		fastBufs.Put(w.b)
	}
	w.b = nil
}

func (w *fastWriter) Header() http.Header { return w.get().hdr }

func (w *fastWriter) WriteHeader(code int) {
	if b := w.get(); b.code == 0 {
		b.code = code
	}
}

func (w *fastWriter) Write(p []byte) (int, error) {
	w.WriteHeader(http.StatusOK)
	w.b.buf = append(w.b.buf, p...)
	return len(p), nil
}

// seed adds the headers set before the handler ran (exporter-toolkit's configured
// ones, for a parked probe) that the handler did not set itself.
func (w *fastWriter) seed(h http.Header) {
	b := w.get()
	for k, v := range h {
		if _, set := b.hdr[k]; !set {
			b.hdr[k] = v
		}
	}
}

// answer returns the whole answer, without its body for a HEAD request: the head
// is written into the room before the body when it fits, or in front of a copy
// when it does not.
func (w *fastWriter) answer(keep, headOnly bool) []byte {
	w.WriteHeader(http.StatusOK)
	b := w.b
	var room [headRoom]byte
	head := room[:0]
	head = append(head, "HTTP/1.1 "...)
	head = strconv.AppendInt(head, int64(b.code), 10)
	head = append(head, ' ')
	head = append(head, http.StatusText(b.code)...)
	head = append(head, "\r\n"...)
	// In key order, as net/http writes them: the same answer, byte for byte, each time.
	var keyBuf [8]string
	keys := keyBuf[:0]
	for k := range b.hdr {
		if k != "Content-Length" && k != "Date" && k != "Connection" { // written below
			keys = append(keys, k)
		}
	}
	slices.Sort(keys)
	for _, k := range keys {
		for _, v := range b.hdr[k] {
			if !safeHeaderValue(v) {
				continue
			}
			head = append(head, k...)
			head = append(head, ": "...)
			head = append(head, v...)
			head = append(head, "\r\n"...)
		}
	}
	head = append(head, "Content-Length: "...)
	head = strconv.AppendInt(head, int64(len(b.buf)-b.body), 10)
	head = append(head, "\r\nDate: "...)
	head = append(head, httpDate()...)
	if !keep {
		head = append(head, "\r\nConnection: close"...)
	}
	head = append(head, "\r\n\r\n"...)
	if headOnly {
		b.buf = b.buf[:b.body]
	}
	if len(head) <= b.body {
		start := b.body - len(head)
		copy(b.buf[start:], head)
		return b.buf[start:]
	}
	return append(head, b.buf[b.body:]...)
}

// safeHeaderValue: no CR, LF or NUL (the handlers set only constants here).
func safeHeaderValue(v string) bool {
	for i := 0; i < len(v); i++ {
		if c := v[i]; c == '\r' || c == '\n' || c == 0 {
			return false
		}
	}
	return true
}

// dateNow caches the Date header's value for the current second.
var dateNow atomic.Pointer[struct {
	sec  int64
	text string
}]

var dateMu sync.Mutex

func httpDate() string {
	now := time.Now()
	if d := dateNow.Load(); d != nil && d.sec == now.Unix() {
		return d.text
	}
	dateMu.Lock()
	defer dateMu.Unlock()
	d := &struct {
		sec  int64
		text string
	}{now.Unix(), now.UTC().Format(http.TimeFormat)}
	dateNow.Store(d)
	return d.text
}
