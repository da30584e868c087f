package wire

import (
	"context"
	"errors"
	"net"
	"net/netip"
	"strings"
	"testing"
	"time"
)

func tcpServer(t *testing.T, h func(net.Conn)) netip.AddrPort {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { l.Close() })
	go func() {
		for {
			c, err := l.Accept()
			if err != nil {
				return
			}
			go func() { defer c.Close(); h(c) }()
		}
	}()
	return l.Addr().(*net.TCPAddr).AddrPort()
}

// servedTCP serves h on loopback and dials it; the connection closes when the test ends.
func servedTCP(t *testing.T, ctx context.Context, tr *Trace, h func(net.Conn)) *TCPConn {
	t.Helper()
	c, err := DialTCP(ctx, tcpServer(t, h), tr)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	return c
}

// closedTCP is a loopback port nothing listens on.
func closedTCP(t *testing.T) netip.AddrPort {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	return l.Addr().(*net.TCPAddr).AddrPort()
}

func TestReadLine(t *testing.T) {
	for _, tc := range []struct {
		name  string
		reply string
		want  string
		err   error
	}{
		{"newline", "OK 1 2\nrest", "OK 1 2", nil},
		{"eof after data", "OK 1 2", "OK 1 2", nil},
		{"nothing", "", "", ErrTruncated},
		{"endless", strings.Repeat("x", 5000), "", ErrTooLarge},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c := servedTCP(t, ctxT(t, 2*time.Second), NewTrace(), func(c net.Conn) { c.Write([]byte(tc.reply)) })
			line, err := c.ReadLine(1024)
			if !errors.Is(err, tc.err) || (err == nil && string(line) != tc.want) {
				t.Errorf("ReadLine = %q, %v; want %q, %v", line, err, tc.want, tc.err)
			}
		})
	}
}

func TestTCPDripTimesOut(t *testing.T) {
	c := servedTCP(t, ctxT(t, 300*time.Millisecond), nil, func(c net.Conn) {
		for range 20 {
			if _, err := c.Write([]byte("x")); err != nil {
				return
			}
			time.Sleep(100 * time.Millisecond)
		}
	})
	start := time.Now()
	if _, err := c.ReadLine(1024); !errors.Is(err, ErrTimeout) {
		t.Errorf("drip: %v", err)
	}
	if el := time.Since(start); el > time.Second {
		t.Errorf("drip took %s with a 300ms deadline", el)
	}
}

// A dial under a context already done is a timeout, never refused or a network
// fault, even to a closed port: the probe gave up, the server did not answer no.
func TestDialTCPCancelled(t *testing.T) {
	closed := closedTCP(t)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	for _, addr := range []netip.AddrPort{closed, tcpServer(t, func(net.Conn) {})} {
		if c, err := DialTCP(ctx, addr, nil); !errors.Is(err, ErrTimeout) {
			if c != nil {
				c.Close()
			}
			t.Errorf("%s: err = %v, want timeout", addr, err)
		}
	}
}

// WriteSecret sends the bytes and traces only their stand-in.
func TestWriteSecret(t *testing.T) {
	got := make(chan string, 1)
	tr := NewTrace()
	c := servedTCP(t, ctxT(t, 2*time.Second), tr, func(c net.Conn) {
		b := make([]byte, 8)
		n, _ := c.Read(b)
		got <- string(b[:n])
	})
	if _, err := c.WriteSecret([]byte("hunter2\n"), "<password>"); err != nil {
		t.Fatal(err)
	}
	if b := <-got; b != "hunter2\n" {
		t.Errorf("peer got %q", b)
	}
	if len(tr.Packets) != 1 || string(tr.Packets[0].Data) != "<password>" || tr.Attempts != 1 {
		t.Errorf("trace %+v", tr.Packets)
	}
}
