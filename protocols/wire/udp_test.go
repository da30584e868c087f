package wire

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"net"
	"net/netip"
	"strings"
	"testing"
	"time"
)

// udpServer answers each datagram with what h returns (tests in this package cannot
// use prototest, which imports nothing from here but lives above it).
func udpServer(t *testing.T, h func(req []byte, n int) [][]byte) netip.AddrPort {
	t.Helper()
	return listenUDP(t, "udp", "127.0.0.1:0", func(req []byte, n int, _ netip.AddrPort) [][]byte { return h(req, n) })
}

// listenUDP serves on network and addr (skipping the test where the IPv6 loopback
// is missing), answering each datagram with what h returns for it and its sender.
func listenUDP(t *testing.T, network, addr string, h func(req []byte, n int, from netip.AddrPort) [][]byte) netip.AddrPort {
	t.Helper()
	pc, err := net.ListenPacket(network, addr)
	if err != nil && network == "udp6" {
		t.Skipf("no IPv6 loopback: %v", err)
	} else if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { pc.Close() })
	go func() {
		buf := make([]byte, 65535)
		for n := 0; ; n++ {
			k, from, err := pc.ReadFrom(buf)
			if err != nil {
				return
			}
			for _, r := range h(append([]byte(nil), buf[:k]...), n, from.(*net.UDPAddr).AddrPort()) {
				pc.WriteTo(r, from)
			}
		}
	}()
	return pc.LocalAddr().(*net.UDPAddr).AddrPort()
}

// sourceServer answers each datagram with "re:" + the request, and reports the
// address each request came from (the shared socket's port).
func sourceServer(t *testing.T, network, addr string) (netip.AddrPort, <-chan netip.AddrPort) {
	t.Helper()
	from := make(chan netip.AddrPort, 1024)
	srv := listenUDP(t, network, addr, func(req []byte, _ int, src netip.AddrPort) [][]byte {
		from <- src
		return [][]byte{append([]byte("re:"), req...)}
	})
	return srv, from
}

// closedUDP is an address on which nothing listens (a port just closed).
func closedUDP(t *testing.T, network, addr string) netip.AddrPort {
	t.Helper()
	pc, err := net.ListenPacket(network, addr)
	if err != nil {
		t.Skipf("no %s loopback: %v", network, err)
	}
	defer pc.Close()
	return pc.LocalAddr().(*net.UDPAddr).AddrPort()
}

// dialT dials addr and closes the query when the test ends (a test on the shared
// path may close it before: Close is idempotent there).
func dialT(t *testing.T, ctx context.Context, addr netip.AddrPort, tr *Trace) *UDPConn {
	t.Helper()
	c, err := DialUDP(ctx, addr, tr)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	return c
}

func ctxT(t *testing.T, d time.Duration) context.Context {
	ctx, cancel := context.WithTimeout(context.Background(), d)
	t.Cleanup(cancel)
	return ctx
}

func TestRequestSkipsRejectedReplies(t *testing.T) {
	addr := udpServer(t, func(req []byte, _ int) [][]byte {
		return [][]byte{[]byte("stray"), []byte("late"), append([]byte("re:"), req...)}
	})
	ctx := ctxT(t, 2*time.Second)
	tr := NewTrace()
	c := dialT(t, ctx, addr, tr)
	got, err := c.Request(ctx, []byte("ping"), func(b []byte) bool { return bytes.HasPrefix(b, []byte("re:")) })
	if err != nil || string(got) != "re:ping" {
		t.Fatalf("Request = %q, %v", got, err)
	}
	if len(tr.Packets) != 4 || tr.Packets[1].Note == "" || tr.Packets[3].Note != "" {
		t.Errorf("trace: %+v", tr.Packets)
	}
	var out strings.Builder
	tr.WriteTranscript(&out)
	if !strings.Contains(out.String(), "(ignored: unexpected reply)") || !strings.Contains(out.String(), "70 69 6e 67") {
		t.Errorf("transcript:\n%s", out.String())
	}
}

// TestClosedConn: a query's socket used after Close fails (netErr names it a
// cancelled probe), on every path: a pooled socket (udp_pooled.go) may serve
// another query by then.
func TestClosedConn(t *testing.T) {
	addr := udpServer(t, func(req []byte, _ int) [][]byte { return [][]byte{req} })
	c, err := DialUDP(ctxT(t, time.Second), addr, nil)
	if err != nil {
		t.Fatal(err)
	}
	if err := c.Close(); err != nil {
		t.Fatal(err)
	}
	if err := c.Close(); err != nil {
		t.Errorf("a second Close: %v", err)
	}
	if err := c.Send([]byte("x")); err == nil {
		t.Errorf("Send after Close: %v", err)
	}
	if _, err := c.Recv(); err == nil {
		t.Errorf("Recv after Close: %v", err)
	}
	c.SetReadDeadline(time.Now())
}

func TestRequestRetries(t *testing.T) {
	// The server drops the first two requests.
	addr := udpServer(t, func(req []byte, n int) [][]byte {
		if n < 2 {
			return nil
		}
		return [][]byte{req}
	})
	ctx := ctxT(t, 1500*time.Millisecond)
	tr := NewTrace()
	c := dialT(t, ctx, addr, tr)
	c.Retries = 2
	if _, err := c.Request(ctx, []byte("x"), nil); err != nil {
		t.Fatalf("with 2 retries the third send is answered: %v", err)
	}
	if tr.Attempts != 3 {
		t.Errorf("attempts = %d, want 3", tr.Attempts)
	}
}

// TestDialUDPFamilies: on Linux the socket is opened by hand (udp_linux.go), so each address form
// is checked: IPv4, IPv4-mapped IPv6 and IPv6 (skipped without an IPv6 loopback).
func TestDialUDPFamilies(t *testing.T) {
	if _, err := DialUDP(ctxT(t, time.Second), netip.MustParseAddrPort("[fe80::1%no-such-interface]:1"), nil); !errors.Is(err, ErrNetwork) {
		t.Errorf("unknown zone: %v, want a network error", err)
	}
	if z, err := zoneIndex("lo"); err != nil || z == 0 {
		t.Errorf("zone lo: %d, %v", z, err)
	}
	for _, f := range []struct{ network, addr string }{{"udp4", "127.0.0.1:0"}, {"udp6", "[::1]:0"}} {
		ap, _ := sourceServer(t, f.network, f.addr) // skips, last, without an IPv6 loopback
		targets := []netip.AddrPort{ap}
		if f.network == "udp4" {
			targets = append(targets, netip.AddrPortFrom(netip.AddrFrom16(ap.Addr().As16()), ap.Port())) // ::ffff:127.0.0.1
		}
		for _, target := range targets {
			c, err := DialUDP(ctxT(t, 2*time.Second), target, nil)
			if err != nil {
				t.Fatalf("%s: %v", target, err)
			}
			b, err := c.Request(ctxT(t, 2*time.Second), []byte("ping"), nil)
			c.Close()
			if err != nil || string(b) != "re:ping" {
				t.Errorf("%s: %q, %v", target, b, err)
			}
		}
	}
}

func TestRecvUnblocksOnCancel(t *testing.T) {
	silent := udpServer(t, func([]byte, int) [][]byte { return nil })
	ctx, cancel := context.WithCancel(context.Background())
	c := dialT(t, ctx, silent, nil)
	time.AfterFunc(50*time.Millisecond, cancel)
	if _, err := c.Recv(); !errors.Is(err, ErrTimeout) {
		t.Errorf("cancelled read: %v", err)
	}
}

// TestReadOutlivesCancelWithDeadline: with a deadline, a cancellation does not cut
// a read short (see watchCancel): a reply that comes after it is still read.
func TestReadOutlivesCancelWithDeadline(t *testing.T) {
	release := make(chan struct{})
	srv := udpServer(t, func([]byte, int) [][]byte {
		<-release
		return [][]byte{[]byte("reply")}
	})
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	c := dialT(t, ctx, srv, nil)
	err := c.Send([]byte("x"))
	cancel()
	close(release)
	if err != nil {
		t.Fatal(err)
	}
	if b, err := c.Recv(); err != nil || string(b) != "reply" {
		t.Errorf("read after cancel: %q, %v", b, err)
	}
}

func TestTraceByteBudget(t *testing.T) {
	tr := NewTrace()
	big := make([]byte, 60<<10)
	for range 5 {
		tr.Received(big)
	}
	kept := 0
	for _, p := range tr.Packets {
		kept += len(p.Data)
		if p.Len != len(big) {
			t.Errorf("Len = %d", p.Len)
		}
	}
	if kept > MaxTraceBytes+4*truncatedPrefix {
		t.Errorf("trace keeps %d bytes, budget %d", kept, MaxTraceBytes)
	}
	var out strings.Builder
	tr.WriteTranscript(&out)
	if !strings.Contains(out.String(), "61440 bytes at") || !strings.Contains(out.String(), "(first 64 kept)") {
		t.Errorf("transcript:\n%.300s", out.String())
	}
	for range 300 {
		tr.Sent([]byte("x"))
	}
	if len(tr.Packets) != tr.MaxPackets || tr.Dropped == 0 {
		t.Errorf("packets %d dropped %d", len(tr.Packets), tr.Dropped)
	}
}

// TestExchange: skipped datagrams are passed over (and named when the deadline
// passes), a broken answer ends the exchange, a good one is returned decoded;
// silence is a timeout by the deadline, a closed port refused at once.
func TestExchange(t *testing.T) {
	errStray := fmt.Errorf("%w: a stray", ErrMismatch)
	errBroken := fmt.Errorf("%w: broken", ErrTruncated)
	decode := func(b []byte) (string, error, error) {
		switch string(b) {
		case "stray":
			return "", errStray, nil
		case "broken":
			return "", nil, errBroken
		}
		return string(b), nil, nil
	}
	for _, tt := range []struct {
		replies []string
		closed  bool // the server's port is closed
		want    string
		err     []error // the error must wrap each
	}{
		{replies: []string{"stray", "ok"}, want: "ok"},
		{replies: []string{"stray", "broken", "ok"}, err: []error{ErrTruncated}},
		{replies: []string{"stray"}, err: []error{ErrMismatch}},
		{replies: nil, err: []error{ErrTimeout}},
		{closed: true, err: []error{ErrRefused}},
	} {
		srv := udpServer(t, func([]byte, int) [][]byte {
			var out [][]byte
			for _, r := range tt.replies {
				out = append(out, []byte(r))
			}
			return out
		})
		if tt.closed {
			srv = closedUDP(t, "udp", "127.0.0.1:0")
		}
		ctx := ctxT(t, 300*time.Millisecond)
		start := time.Now()
		got, err := Exchange(ctx, dialT(t, ctx, srv, NewTrace()), []byte("q"), decode)
		if el := time.Since(start); el > 2*time.Second {
			t.Errorf("%q: %s with a 300ms deadline", tt.replies, el)
		}
		if got != tt.want {
			t.Errorf("%q: got %q, want %q", tt.replies, got, tt.want)
		}
		for _, want := range tt.err {
			if !errors.Is(err, want) {
				t.Errorf("%q: err %v, want %v", tt.replies, err, want)
			}
		}
		if len(tt.err) == 0 && err != nil {
			t.Errorf("%q: err %v", tt.replies, err)
		}
	}
}
