package collector

import (
	"net/http"
	"sync"

	"github.com/prometheus/common/expfmt"
)

// acceptedFormats are the exposition formats /probe offers, in order of preference
// when the scraper's Accept header ranks them equally (as promhttp with OpenMetrics).
var acceptedFormats = []expfmt.Format{expfmt.FmtOpenMetrics_1_0_0, expfmt.FmtOpenMetrics_0_0_1, expfmt.FmtText}

// Format is a negotiated response format.
type Format struct {
	// ContentType is the Content-Type header value, shared by every response: set
	// it into the header map directly (Header.Set allocates); net/http only reads it.
	ContentType []string
	OpenMetrics bool // OpenMetrics, else the text format
}

// formatCacheSize bounds the Negotiator's cache: a deployment has a handful of
// scrapers (one or two Prometheus versions, curl), and the Accept header is the
// client's to choose, so the cache must not grow with the headers it is sent.
const formatCacheSize = 8

// Negotiator picks the response format for Accept headers, remembering the
// negotiation of the last few. Parsing the header (expfmt.NegotiateAccept, then
// FormatType) costs ~1.5 us and 10 allocations per probe (BenchmarkNegotiate); a
// Prometheus server sends the same header on every scrape. Slots are reused
// round-robin, so its size never exceeds formatCacheSize. The zero value is ready.
type Negotiator struct {
	mu    sync.RWMutex
	slots [formatCacheSize]struct {
		accept string
		e      *Format
	}
	next int
}

// Negotiate returns the format to answer a request with the given Accept header.
func (c *Negotiator) Negotiate(accept string) *Format {
	c.mu.RLock()
	for i := range c.slots {
		if s := &c.slots[i]; s.e != nil && s.accept == accept {
			c.mu.RUnlock()
			return s.e
		}
	}
	c.mu.RUnlock()
	e := negotiate(accept)
	if len(accept) <= 512 {
		c.mu.Lock()
		c.slots[c.next].accept, c.slots[c.next].e = accept, e
		c.next = (c.next + 1) % formatCacheSize
		c.mu.Unlock()
	}
	return e
}

// negotiate picks the response format for an Accept header.
func negotiate(accept string) *Format {
	f := expfmt.NegotiateAccept(http.Header{"Accept": []string{accept}}, acceptedFormats...)
	switch f.FormatType() {
	case expfmt.TypeTextPlain, expfmt.TypeOpenMetrics:
	default: // protobuf formats: answer in text, which every scraper accepts
		f = expfmt.NewFormat(expfmt.TypeTextPlain)
	}
	return &Format{ContentType: []string{string(f)}, OpenMetrics: f.FormatType() == expfmt.TypeOpenMetrics}
}
