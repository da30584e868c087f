//go:build linux && !gse_portable

package wire

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/netip"
	"strings"
	"sync"
	"testing"
	"time"
	"unsafe"

	"golang.org/x/sys/unix"
)

// sharedT dials addr as dialT does and fails the test unless the query got a
// shared socket.
func sharedT(t *testing.T, ctx context.Context, addr netip.AddrPort, tr *Trace) *UDPConn {
	t.Helper()
	c := dialT(t, ctx, addr, tr)
	if c.sh == nil {
		t.Fatal("the query did not get a shared socket")
	}
	return c
}

// drops is how many datagrams the query's shared socket has dropped.
func drops(c *UDPConn) int {
	c.sh.s.mu.Lock()
	defer c.sh.s.mu.Unlock()
	return c.sh.s.drops
}

// checkQueue fails the test if the query's queue holds more than its bounds.
func checkQueue(t *testing.T, c *UDPConn) {
	t.Helper()
	c.sh.s.mu.Lock()
	n, bytes := len(c.sh.queue), c.sh.queued
	c.sh.s.mu.Unlock()
	if n > queueDatagrams || bytes > queueBytes {
		t.Errorf("%d datagrams, %d bytes queued; bounds %d, %d", n, bytes, queueDatagrams, queueBytes)
	}
}

// TestSharedRejectsForeignReplies: on a shared (unconnected) socket, a datagram is
// given only to the query sent to exactly its source address and port. A spoofer on
// another port of the same host, and a second server whose query is registered on the
// same socket, never reach the first query; the kernel filter of a connected socket
// did the same before.
func TestSharedRejectsForeignReplies(t *testing.T) {
	// The real server answers only after the foreign datagrams were sent, so they
	// reach the socket first.
	release := make(chan struct{})
	real := udpServer(t, func(req []byte, _ int) [][]byte {
		<-release
		return [][]byte{append([]byte("re:"), req...)}
	})
	other, otherFrom := sourceServer(t, "udp", "127.0.0.1:0")
	spoofer, err := net.ListenPacket("udp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer spoofer.Close()

	ctx := ctxT(t, 3*time.Second)
	tr := NewTrace()
	c := sharedT(t, ctx, real, tr)
	// A second query on the same socket tells the test its port.
	c2 := dialT(t, ctx, other, nil)
	if c2.sh == nil || c2.sh.s != c.sh.s {
		t.Fatal("the second query did not share the first one's socket")
	}
	if b, err := c2.Request(ctx, []byte("two"), nil); err != nil || string(b) != "re:two" {
		t.Fatalf("second query: %q, %v", b, err)
	}
	port := <-otherFrom

	if err := c.Send([]byte("one")); err != nil {
		t.Fatal(err)
	}
	// From the same host, another port: the address matches, the port does not.
	spoofer.WriteTo([]byte("spoofed"), net.UDPAddrFromAddrPort(port))
	// The other server answers again: its reply belongs to c2, not c. Once c2 has
	// it, the socket's reader has passed the spoofed datagram, sent before.
	c2.Send([]byte("late"))
	if b, err := c2.Recv(); err != nil || string(b) != "re:late" {
		t.Errorf("second query got %q, %v", b, err)
	}
	// Only now does the real server answer.
	close(release)
	b, err := c.Recv()
	if err != nil || string(b) != "re:one" {
		t.Fatalf("first query got %q, %v; want only its own server's reply", b, err)
	}
	for _, p := range tr.Packets {
		if strings.Contains(string(p.Data), "spoofed") || strings.Contains(string(p.Data), "late") {
			t.Errorf("a foreign datagram reached the first query's trace: %q", p.Data)
		}
	}
}

// TestSharedSameTargetTwice: two queries in flight to one address get different
// sockets (one registration per destination per socket) and each its own reply.
func TestSharedSameTargetTwice(t *testing.T) {
	srv, from := sourceServer(t, "udp", "127.0.0.1:0")
	ctx := ctxT(t, 3*time.Second)
	a := dialT(t, ctx, srv, nil)
	b := dialT(t, ctx, srv, nil)
	if a.sh != nil && b.sh != nil && a.sh.s == b.sh.s {
		t.Fatal("two queries to one destination registered on one socket")
	}
	ra, erra := a.Request(ctx, []byte("a"), nil)
	rb, errb := b.Request(ctx, []byte("b"), nil)
	if string(ra) != "re:a" || string(rb) != "re:b" || erra != nil || errb != nil {
		t.Errorf("replies %q %v, %q %v", ra, erra, rb, errb)
	}
	if pa, pb := <-from, <-from; pa == pb {
		t.Errorf("both queries came from %s", pa)
	}
}

// TestSharedRotates: a socket serves at most socketUses queries, then a fresh one
// (a new random port) takes over; the old one closes when its last query leaves.
func TestSharedRotates(t *testing.T) {
	srv, from := sourceServer(t, "udp", "127.0.0.1:0")
	ports := map[netip.AddrPort]int{}
	for range socketUses + 10 {
		ctx := ctxT(t, 2*time.Second)
		c := dialT(t, ctx, srv, nil)
		if _, err := c.Request(ctx, []byte("x"), nil); err != nil {
			t.Fatal(err)
		}
		c.Close()
		ports[<-from]++
	}
	if len(ports) < 2 {
		t.Errorf("%d queries from %d source ports, want a new socket after %d", socketUses+10, len(ports), socketUses)
	}
	for p, n := range ports {
		if n > socketUses {
			t.Errorf("port %s served %d queries, more than %d", p, n, socketUses)
		}
	}
}

// TestSharedRefused: an ICMP port unreachable for one destination fails that query
// at once (read from the socket's error queue) and no other query on the socket.
func TestSharedRefused(t *testing.T) {
	for _, tc := range []struct{ network, addr string }{{"udp4", "127.0.0.1:0"}, {"udp6", "[::1]:0"}} {
		t.Run(tc.network, func(t *testing.T) {
			live, _ := sourceServer(t, tc.network, tc.addr)
			closed := closedUDP(t, tc.network, tc.addr)

			ctx := ctxT(t, 3*time.Second)
			ok := dialT(t, ctx, live, nil)
			c := sharedT(t, ctx, closed, nil)
			start := time.Now()
			if _, err := c.Request(ctx, []byte("x"), nil); !errors.Is(err, ErrRefused) {
				t.Errorf("closed port: %v, want refused", err)
			}
			if d := time.Since(start); d > 2*time.Second {
				t.Errorf("refused after %s", d)
			}
			if b, err := ok.Request(ctx, []byte("y"), nil); err != nil || string(b) != "re:y" {
				t.Errorf("the other query on the socket: %q, %v", b, err)
			}
		})
	}
}

// TestSharedQueueBounded: a server that floods one query is held to queueDatagrams
// datagrams and queueBytes bytes waiting, the rest dropped and said in the trace.
func TestSharedQueueBounded(t *testing.T) {
	srv := udpServer(t, func([]byte, int) [][]byte {
		out := make([][]byte, 200)
		for i := range out {
			out[i] = make([]byte, 8000)
		}
		return out
	})
	ctx := ctxT(t, 20*time.Second)
	tr := NewTrace()
	c := sharedT(t, ctx, srv, tr)
	if err := c.Send([]byte("flood")); err != nil {
		t.Fatal(err)
	}
	// The flood arrives while no one reads: wait until the reader has dropped as
	// many as retire the socket (on a busy machine the reader may still be reading
	// the flood when the first drop is counted).
	for end := time.Now().Add(15 * time.Second); drops(c) < sharedDrops && time.Now().Before(end); {
		time.Sleep(5 * time.Millisecond)
	}
	checkQueue(t, c)
	if _, err := c.Recv(); err != nil {
		t.Fatal(err)
	}
	said := false
	for _, e := range tr.Entries {
		said = said || strings.Contains(fmt.Sprint(e), "dropped")
	}
	if !said {
		t.Errorf("the trace does not say datagrams were dropped: %v", tr.Entries)
	}
	// The flooded socket takes no new queries: the next goes to a fresh socket, whose
	// kernel buffer the flood does not fill.
	other, _ := sourceServer(t, "udp", "127.0.0.1:0")
	c2 := dialT(t, ctx, other, NewTrace())
	if c2.sh == nil || c2.sh.s == c.sh.s {
		t.Error("a query after the flood joined the flooded socket")
	}
}

// TestSharedConcurrent: many queries at once over few sockets, each reply to its
// own query (run with -race).
func TestSharedConcurrent(t *testing.T) {
	const servers, rounds = 20, 30
	addrs := make([]netip.AddrPort, servers)
	for i := range addrs {
		addrs[i], _ = sourceServer(t, "udp", "127.0.0.1:0")
	}
	var wg sync.WaitGroup
	errs := make(chan error, servers*rounds)
	for i := range servers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for r := range rounds {
				ctx := ctxT(t, 3*time.Second)
				c, err := DialUDP(ctx, addrs[i], nil)
				if err != nil {
					errs <- err
					return
				}
				want := fmt.Sprintf("%d/%d", i, r)
				b, err := c.Request(ctx, []byte(want), nil)
				c.Close()
				if err != nil || string(b) != "re:"+want {
					errs <- fmt.Errorf("query %s: %q, %v", want, b, err)
				}
			}
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
}

// TestSharedRefusedBeforeAnotherSend: the kernel reports an ICMP error pending on a
// socket to its next sendto, whichever destination that is for. A query sending
// right after another query's datagram was refused must still send, and the
// refused one must still learn it was refused.
func TestSharedRefusedBeforeAnotherSend(t *testing.T) {
	live, _ := sourceServer(t, "udp", "127.0.0.1:0")
	for i := range 50 {
		closed := closedUDP(t, "udp", "127.0.0.1:0")
		ctx := ctxT(t, 3*time.Second)
		x := dialT(t, ctx, closed, nil)
		y := dialT(t, ctx, live, nil)
		if x.sh == nil || y.sh == nil || x.sh.s != y.sh.s {
			t.Fatal("the two queries do not share a socket")
		}
		errX := x.Send([]byte("x")) // refused: loopback answers with ICMP at once
		errY := y.Send([]byte("y"))
		if errX != nil || errY != nil {
			t.Fatalf("round %d: sends: %v, %v (the other query's ICMP error must not fail a send)", i, errX, errY)
		}
		if _, err := x.Recv(); !errors.Is(err, ErrRefused) {
			t.Errorf("round %d: refused query: %v", i, err)
		}
		if b, err := y.Recv(); err != nil || string(b) != "re:y" {
			t.Errorf("round %d: other query: %q, %v", i, b, err)
		}
		x.Close()
		y.Close()
	}
}

// TestSharedFloodNeighbours: a server flooding its query's shared socket (20,000
// datagrams as fast as it can send) does not keep the other queries on that socket
// from their replies, its own queue stays bounded, and queries that start during the
// flood go to another socket.
func TestSharedFloodNeighbours(t *testing.T) {
	flood, err := net.ListenPacket("udp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer flood.Close()
	started := make(chan struct{})
	go func() {
		buf := make([]byte, 64)
		_, from, err := flood.ReadFrom(buf)
		if err != nil {
			return
		}
		close(started)
		d := make([]byte, 1200)
		for range 20000 {
			if _, err := flood.WriteTo(d, from); err != nil {
				return
			}
		}
	}()
	ctx := ctxT(t, 10*time.Second)
	fc := dialT(t, ctx, flood.LocalAddr().(*net.UDPAddr).AddrPort(), nil)

	// The neighbours register before the flood starts, most on the flood's socket.
	const neighbours = 30
	conns := make([]*UDPConn, neighbours)
	shared := 0
	for i := range conns {
		srv, _ := sourceServer(t, "udp", "127.0.0.1:0")
		c := dialT(t, ctx, srv, nil)
		if c.sh != nil && c.sh.s == fc.sh.s {
			shared++
		}
		conns[i] = c
	}
	if shared == 0 {
		t.Fatal("no neighbour shared the flood's socket")
	}
	if err := fc.Send([]byte("go")); err != nil {
		t.Fatal(err)
	}
	<-started

	var wg sync.WaitGroup
	errs := make(chan error, neighbours)
	for i, c := range conns {
		wg.Add(1)
		go func() {
			defer wg.Done()
			c.Retries = 4 // a datagram lost to the flood is asked for again, as modules do
			want := fmt.Sprint(i)
			if b, err := c.Request(ctx, []byte(want), nil); err != nil || string(b) != "re:"+want {
				errs <- fmt.Errorf("neighbour %d: %q, %v", i, b, err)
			}
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
	for end := time.Now().Add(5 * time.Second); drops(fc) < sharedDrops; time.Sleep(5 * time.Millisecond) {
		if time.Now().After(end) {
			t.Fatalf("the flood's socket dropped %d datagrams", drops(fc))
		}
	}
	srv, _ := sourceServer(t, "udp", "127.0.0.1:0")
	late := dialT(t, ctx, srv, nil)
	if late.sh != nil && late.sh.s == fc.sh.s {
		t.Error("a query that started during the flood joined the flooded socket")
	}
	checkQueue(t, fc)
}

// TestSharedUseAfterClose: registrations are recycled, so a closed UDPConn must not
// reach the one it had: a second Close, a read, a write or a deadline after Close
// touch nothing of the query that reuses it.
func TestSharedUseAfterClose(t *testing.T) {
	srv, _ := sourceServer(t, "udp", "127.0.0.1:0")
	ctx := ctxT(t, 3*time.Second)
	a := dialT(t, ctx, srv, nil)
	old := a.sh
	a.Close()
	b := dialT(t, ctx, srv, nil)
	if b.sh != old {
		t.Log("the registration was not reused (the pool dropped it): the checks still apply")
	}
	a.Close() // must not end b's registration
	a.SetReadDeadline(time.Now())
	if err := a.Send([]byte("a")); err == nil {
		t.Error("a write after Close succeeded")
	}
	if _, err := a.Recv(); err == nil {
		t.Error("a read after Close succeeded")
	}
	if got, err := b.Request(ctx, []byte("b"), nil); err != nil || string(got) != "re:b" {
		t.Errorf("the query reusing the registration: %q, %v", got, err)
	}
}

// TestSharedBrokenSocket: should the poller give up on a shared socket, its queries
// fail at once (not at their deadlines) and the next query gets a fresh socket.
func TestSharedBrokenSocket(t *testing.T) {
	silent := udpServer(t, func([]byte, int) [][]byte { return nil })
	ctx := ctxT(t, 5*time.Second)
	c := sharedT(t, ctx, silent, nil)
	broken := c.sh.s
	broken.fail(errors.New("not pollable"))
	start := time.Now()
	if _, err := c.Recv(); !errors.Is(err, ErrNetwork) || time.Since(start) > time.Second {
		t.Errorf("query on the broken socket: %v after %s, want a network error at once", err, time.Since(start))
	}
	d := dialT(t, ctx, silent, nil)
	if d.sh == nil || d.sh.s == broken {
		t.Error("the next query was registered on the broken socket")
	}
}

func TestControlSize(t *testing.T) {
	if want := unix.CmsgSpace(int(unsafe.Sizeof(unix.Timespec{}))); controlSize != want {
		t.Fatalf("controlSize %d, CmsgSpace of a timespec %d", controlSize, want)
	}
}

// TestSharedArrivalTime: a reply that waits in the socket before the probe reads it
// (a busy CPU) is timed from the kernel's arrival stamp: Recv knows how long it
// waited, and a request's phase leaves that wait out.
func TestSharedArrivalTime(t *testing.T) {
	srv, _ := sourceServer(t, "udp", "127.0.0.1:0")
	tr := NewTrace()
	c := sharedT(t, ctxT(t, 5*time.Second), srv, tr)
	p := tr.Begin("info")
	start := time.Now()
	if err := c.Send([]byte("ping")); err != nil {
		t.Fatal(err)
	}
	const late = 50 * time.Millisecond
	time.Sleep(late) // the reply arrives meanwhile and waits
	b, err := c.Recv()
	if err != nil || string(b) != "re:ping" {
		t.Fatalf("Recv: %q, %v", b, err)
	}
	// The sleep bounds the wait from below, whatever the machine's speed.
	if c.waited < late-5*time.Millisecond {
		t.Fatalf("the reply waited %v by the kernel's stamp, want at least ~%v (no SO_TIMESTAMPNS?)", c.waited, late)
	}
	tr.Waited(c.waited)
	tr.End(p, nil)
	wall := time.Since(start)
	if got := tr.Phases[0].Duration; got > wall-c.waited+time.Millisecond {
		t.Fatalf("phase %v: the %v the reply waited is counted (wall %v)", got, c.waited, wall)
	}
	if tr.WaitedTotal() != c.waited {
		t.Fatalf("WaitedTotal %v, want %v", tr.WaitedTotal(), c.waited)
	}
}
