package collector

import (
	"fmt"
	"strings"
	"testing"

	"github.com/gameserver-exporter/gameserver_exporter/protocols/prototest"
)

// TestNegotiatorBounded: distinct Accept headers, the client's to choose, do not
// grow the cache (issue 13).
func TestNegotiatorBounded(t *testing.T) {
	var n Negotiator
	pad := strings.Repeat("x", 400)
	n.Negotiate("text/plain") // warm up
	before := prototest.HeapAfterGC()
	const headers = 20000
	for i := range headers {
		n.Negotiate(fmt.Sprintf("text/plain;version=0.0.4;q=0.%d;x=%s%d", i%9+1, pad, i))
	}
	growth := int64(prototest.HeapAfterGC()) - int64(before)
	// Unbounded, each header kept ~0.9 KiB (18 MiB here); bounded, a few KiB in all.
	if growth > 2<<20 {
		t.Errorf("heap grew %d KiB after %d distinct Accept headers", growth>>10, headers)
	}
	kept := 0
	for _, s := range n.slots {
		if s.e != nil {
			kept++
		}
	}
	if kept > formatCacheSize {
		t.Errorf("format cache holds %d entries", kept)
	}
	// Still negotiates right after the churn.
	if f := n.Negotiate("application/openmetrics-text;version=1.0.0"); !f.OpenMetrics || !strings.HasPrefix(f.ContentType[0], "application/openmetrics-text") {
		t.Errorf("negotiated %+v", f)
	}
}

func TestNegotiate(t *testing.T) {
	for _, c := range []struct {
		accept string
		om     bool
		ct     string
	}{
		{"", false, "text/plain"},
		{"application/openmetrics-text;version=1.0.0;q=0.9,text/plain;version=0.0.4;q=0.5", true, "application/openmetrics-text"},
		{"application/vnd.google.protobuf;proto=io.prometheus.client.MetricFamily;encoding=delimited", false, "text/plain"},
	} {
		var n Negotiator
		f := n.Negotiate(c.accept)
		if f.OpenMetrics != c.om || !strings.HasPrefix(f.ContentType[0], c.ct) {
			t.Errorf("Accept %q: %+v, want om=%v %s", c.accept, f, c.om, c.ct)
		}
		if n.Negotiate(c.accept) != f {
			t.Errorf("Accept %q: not answered from the cache", c.accept)
		}
	}
}

// BenchmarkNegotiate: what the Accept cache of the handler saves per probe (the
// cached lookup against a full parse of Prometheus' Accept header).
func BenchmarkNegotiate(b *testing.B) {
	const accept = "application/openmetrics-text;version=1.0.0,application/openmetrics-text;version=0.0.1;q=0.75,text/plain;version=0.0.4;q=0.5,*/*;q=0.1"
	b.Run("cached", func(b *testing.B) {
		var c Negotiator
		b.ReportAllocs()
		for b.Loop() {
			c.Negotiate(accept)
		}
	})
	b.Run("parsed", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			negotiate(accept)
		}
	})
}
