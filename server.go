package main

import (
	"net/http"
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

func newServer(h http.Handler) *http.Server {
	return &http.Server{
		Handler:           h,
		ReadHeaderTimeout: readHeaderTimeout,
		ReadTimeout:       readTimeout,
		IdleTimeout:       idleTimeout,
		MaxHeaderBytes:    maxHeaderBytes,
	}
}
