package web

import (
	"net/http"
	"strconv"
	"time"
)

// HTTP server limits. Prometheus sends a few hundred bytes of headers and no body,
// and keeps its connection between scrapes (every 5 s to 1 min, idle in between):
// none of these is reached by it, while a client that opens connections and says
// nothing, drips a body or leaves connections idle is cut off.
const (
	readHeaderTimeout = 10 * time.Second
	// readTimeout bounds reading a whole request, body included. Probes run after
	// it: it does not bound a probe's time.
	readTimeout    = 30 * time.Second
	idleTimeout    = 90 * time.Second // above a 60 s scrape interval
	maxHeaderBytes = 32 << 10
)

// NewServer returns the exporter's http.Server with the limits above, and every
// answer's write deadline (WriteDeadlines).
func NewServer(h http.Handler) *http.Server {
	return &http.Server{
		Handler:           WriteDeadlines(h),
		ReadHeaderTimeout: readHeaderTimeout,
		ReadTimeout:       readTimeout,
		IdleTimeout:       idleTimeout,
		MaxHeaderBytes:    maxHeaderBytes,
	}
}

// RefuseBodies answers a request that carries a body with 413 and closes its
// connection, before any handler runs. No endpoint takes a body, and net/http
// would otherwise drain up to 256 KiB of it after the handler to keep the
// connection: a client dripping a body holds a connection (and, for POST
// /-/reload, would have had its reload done first).
func RefuseBodies(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.ContentLength == 0 {
			next.ServeHTTP(w, r)
			return
		}
		const msg = "this endpoint takes no request body\n"
		if hj, ok := w.(http.Hijacker); ok {
			if conn, buf, err := hj.Hijack(); err == nil {
				conn.SetWriteDeadline(time.Now().Add(writeBudget(0))) // Hijack cleared it
				buf.WriteString("HTTP/1.1 413 Request Entity Too Large\r\nConnection: close\r\nContent-Type: text/plain; charset=utf-8\r\n" +
					"Content-Length: " + strconv.Itoa(len(msg)) + "\r\n\r\n" + msg)
				buf.Flush()
				conn.Close()
				return
			}
		}
		w.Header().Set("Connection", "close")
		http.Error(w, msg[:len(msg)-1], http.StatusRequestEntityTooLarge)
	})
}
