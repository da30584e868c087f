//go:build gse_portable

package wire

import (
	"net"
	"net/netip"
	"testing"
	"time"
)

// TestPooledSocketNewAddress: a reused socket keeps its port for a server at the
// same IP address (no disconnect: the same route), and undoes its connect before
// one at another (Linux keeps the old route's source address across connects),
// which gives the port back: the next one is a fresh random port.
func TestPooledSocketNewAddress(t *testing.T) {
	if pc, err := net.ListenPacket("udp", "127.0.0.2:0"); err != nil {
		t.Skipf("127.0.0.2 is not a local address here: %v", err)
	} else {
		pc.Close()
	}
	emptyIdle(t)
	a, fromA := sourceServer(t, "udp", "127.0.0.1:0")
	b, fromB := sourceServer(t, "udp", "127.0.0.1:0")
	c, fromC := sourceServer(t, "udp", "127.0.0.2:0")
	port := func(from <-chan netip.AddrPort) uint16 {
		select {
		case src := <-from:
			return src.Port()
		case <-time.After(time.Second):
			t.Fatal("the server heard nothing")
			return 0
		}
	}
	_, p1, err1 := exchange(t, a, "x")
	_, p2, err2 := exchange(t, b, "x")
	_, p3, err3 := exchange(t, c, "x")
	if err1 != nil || err2 != nil || err3 != nil || p1 != p2 || p2 != p3 {
		t.Fatalf("exchanges: %v, %v, %v (one socket: %v)", err1, err2, err3, p1 == p2 && p2 == p3)
	}
	pa, pb, pc := port(fromA), port(fromB), port(fromC)
	if pa != pb {
		t.Errorf("the same IP address, another port: the socket's port moved from %d to %d (a disconnect)", pa, pb)
	}
	if pc == pb { // a fresh random port equals the old one once in about 28,000 runs
		t.Errorf("another IP address: the socket kept port %d (no disconnect)", pc)
	}
}
