package hostile

import (
	"net/netip"
	"testing"
	"time"

	"github.com/gameserver-exporter/gameserver_exporter/protocols/prototest"
	"github.com/gameserver-exporter/gameserver_exporter/protocols/registry"
)

// retainedBound is what one finished probe may keep alive: CONTRIBUTING.md says a
// probe never holds more than a few hundred KiB.
const retainedBound = 1 << 20

// TestRetainedPerProbe floods each UDP querier with 40 big datagrams it must
// reject (60 000 bytes each, paced so that the probe reads them all) and measures
// the heap a finished probe leaves behind, the History still holding it as /probe
// and the landing page do.
func TestRetainedPerProbe(t *testing.T) {
	junk := append([]byte("JUNK"), make([]byte, 60000)...)
	for _, p := range registry.All() {
		if !udp(p) {
			continue
		}
		t.Run(p.Name, func(t *testing.T) {
			h := newHandler(t, "", 0, 0)
			s := startUDP(t, func(s *udpServer, _ []byte, from netip.AddrPort) {
				s.stream(time.Millisecond, func(i int) bool {
					s.send(from, junk)
					return i < 40
				})
			})
			heap0 := prototest.HeapAfterGC()
			out := probe(h, p.Name, targetFor(t, h, p.Name, s.addr), scrapeTimeout)
			s.Close()
			heap1 := prototest.HeapAfterGC()
			n, _ := received(lastProbeDebug(t, h))
			kept := int64(heap1) - int64(heap0)
			t.Logf("reason=%q in %s, %d datagrams read, %d KiB kept", out.reason(), out.elapsed.Round(time.Millisecond), n, kept>>10)
			if kept > retainedBound {
				t.Errorf("a finished probe keeps %d KiB alive (%d datagrams read), bound %d KiB", kept>>10, n, retainedBound>>10)
			}
		})
	}
}
