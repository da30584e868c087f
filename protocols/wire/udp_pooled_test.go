//go:build unix && (!linux || gse_portable)

package wire

import (
	"bytes"
	"errors"
	"net/netip"
	"testing"
	"time"
)

// emptyIdle closes the sockets waiting in the free lists, so a test sees its own.
func emptyIdle(t *testing.T) {
	t.Helper()
	for _, l := range idle {
		for len(l) > 0 {
			(<-l).c.Close()
		}
	}
}

// exchange is one query of addr through a fresh UDPConn: it sends req and returns
// the first datagram, with the pooled socket that carried it.
func exchange(t *testing.T, addr netip.AddrPort, req string) ([]byte, *pooledSocket, error) {
	t.Helper()
	ctx := ctxT(t, time.Second)
	c, err := DialUDP(ctx, addr, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	p := c.s.p
	if err := c.Send([]byte(req)); err != nil {
		return nil, p, err
	}
	b, err := c.Recv()
	return b, p, err
}

// TestPooledSocketReused: a query's socket serves the next query, of another server.
func TestPooledSocketReused(t *testing.T) {
	emptyIdle(t)
	one := udpServer(t, func([]byte, int) [][]byte { return [][]byte{[]byte("one")} })
	two := udpServer(t, func([]byte, int) [][]byte { return [][]byte{[]byte("two")} })
	b1, p1, err1 := exchange(t, one, "x")
	b2, p2, err2 := exchange(t, two, "x")
	if err1 != nil || err2 != nil || string(b1) != "one" || string(b2) != "two" {
		t.Fatalf("replies %q, %v; %q, %v", b1, err1, b2, err2)
	}
	if p1 != p2 {
		t.Error("the second query opened a socket of its own")
	}
	if p1.uses != 2 {
		t.Errorf("uses = %d, want 2", p1.uses)
	}
}

// TestPooledSocketDropsWhatCameBefore: the next query of a reused socket reads none
// of what its last query left unread: neither a late datagram of that server nor
// the ICMP error of a closed port.
func TestPooledSocketDropsWhatCameBefore(t *testing.T) {
	emptyIdle(t)
	chatty := udpServer(t, func([]byte, int) [][]byte { return [][]byte{[]byte("first"), []byte("late")} })
	closed := closedUDP(t, "udp", "127.0.0.1:0")
	next, _ := sourceServer(t, "udp", "127.0.0.1:0")

	ctx := ctxT(t, time.Second)
	c, _ := DialUDP(ctx, chatty, nil)
	p := c.s.p
	c.Send([]byte("x"))
	if b, err := c.Recv(); string(b) != "first" {
		t.Fatalf("chatty: %q, %v", b, err)
	}
	time.Sleep(50 * time.Millisecond) // "late" waits in the socket
	c.Close()

	b, p2, err := exchange(t, next, "a")
	if p2 != p || err != nil || !bytes.Equal(b, []byte("re:a")) {
		t.Fatalf("after a late datagram: %q, %v (same socket: %v)", b, err, p2 == p)
	}

	// A datagram to a closed port leaves an ICMP error pending on the socket.
	c, _ = DialUDP(ctxT(t, time.Second), closed, nil)
	c.Send([]byte("x"))
	time.Sleep(50 * time.Millisecond)
	c.Close()
	b, p3, err := exchange(t, next, "b")
	if p3 != p || err != nil || !bytes.Equal(b, []byte("re:b")) {
		t.Fatalf("after an ICMP error: %q, %v (same socket: %v)", b, err, p3 == p)
	}
}

// TestPooledSocketRefused: a reused socket still reports a closed port at once.
func TestPooledSocketRefused(t *testing.T) {
	emptyIdle(t)
	live := udpServer(t, func([]byte, int) [][]byte { return [][]byte{[]byte("up")} })
	closed := closedUDP(t, "udp", "127.0.0.1:0")
	_, p1, _ := exchange(t, live, "x")
	start := time.Now()
	_, p2, err := exchange(t, closed, "x")
	if p1 != p2 || !errors.Is(netErr(err), ErrRefused) || time.Since(start) > 500*time.Millisecond {
		t.Errorf("closed port on a reused socket: %v after %s (same socket: %v)", err, time.Since(start), p1 == p2)
	}
}

// TestPooledSocketRetires: a socket serves at most socketUses queries, and one past
// socketAge or whose buffer a list query raised is closed rather than reused.
func TestPooledSocketRetires(t *testing.T) {
	emptyIdle(t)
	addr := udpServer(t, func([]byte, int) [][]byte { return [][]byte{[]byte("up")} })
	_, first, _ := exchange(t, addr, "x")
	first.uses = socketUses - 1
	if _, p, _ := exchange(t, addr, "x"); p != first || len(idle[0]) != 0 {
		t.Fatalf("the socket's last use: same socket %v, %d idle after it", p == first, len(idle[0]))
	}
	_, old, _ := exchange(t, addr, "x")
	old.born = time.Now().Add(-socketAge)
	if _, p, _ := exchange(t, addr, "x"); p == old {
		t.Error("a socket past its age served another query")
	}

	emptyIdle(t)
	c, err := DialUDPList(ctxT(t, time.Second), addr, nil)
	if err != nil {
		t.Fatal(err)
	}
	c.Close()
	if len(idle[0]) != 0 {
		t.Error("a list query's socket, its buffer raised, went back to the free list")
	}
}

// TestPooledSocketAsk: a request Request asks is sent from within the read that
// follows, yet a Send after it, or a Close without a read, still sends it first.
func TestPooledSocketAsk(t *testing.T) {
	emptyIdle(t)
	got := make(chan string, 8)
	srv := udpServer(t, func(req []byte, _ int) [][]byte { got <- string(req); return nil })
	c, err := DialUDP(ctxT(t, time.Second), srv, nil)
	if err != nil {
		t.Fatal(err)
	}
	if err := c.send([]byte("a"), true); err != nil {
		t.Fatal(err)
	}
	if c.s.p.pending == nil {
		t.Error("the asked request went out before its read")
	}
	c.Send([]byte("b"))
	c.send([]byte("c"), true)
	c.Close()
	for _, want := range []string{"a", "b", "c"} {
		select {
		case g := <-got:
			if g != want {
				t.Fatalf("server got %q, want %q", g, want)
			}
		case <-time.After(time.Second):
			t.Fatalf("server never got %q", want)
		}
	}
}
