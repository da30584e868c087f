//go:build linux

package hostile

import (
	"errors"
	"net"
	"net/netip"
	"os"
	"syscall"
	"testing"
	"time"
)

// backlogServer is a TCP listener that never accepts, with its accept queue full:
// the kernel drops further SYNs, so a client's connect hangs until its deadline.
type backlogServer struct {
	fd    int
	conns []net.Conn
}

func (b *backlogServer) Close() {
	for _, c := range b.conns {
		c.Close()
	}
	b.conns = nil
	if b.fd >= 0 {
		syscall.Close(b.fd)
		b.fd = -1
	}
}

// fullBacklog listens with backlog 0 on a raw socket (net.Listen would use the
// system's somaxconn) and connects until a connection attempt goes unanswered.
func fullBacklog(t testing.TB) (netip.AddrPort, server) {
	t.Helper()
	fd, err := syscall.Socket(syscall.AF_INET, syscall.SOCK_STREAM|syscall.SOCK_CLOEXEC, 0)
	if err != nil {
		t.Fatal(err)
	}
	b := &backlogServer{fd: fd}
	t.Cleanup(b.Close)
	if err := syscall.Bind(fd, &syscall.SockaddrInet4{Addr: [4]byte{127, 0, 0, 1}}); err != nil {
		t.Fatal(err)
	}
	if err := syscall.Listen(fd, 0); err != nil {
		t.Fatal(err)
	}
	sa, err := syscall.Getsockname(fd)
	if err != nil {
		t.Fatal(err)
	}
	addr := netip.AddrPortFrom(loopback, uint16(sa.(*syscall.SockaddrInet4).Port))
	// A connect to a listener with room completes at once on loopback; one that
	// gets no SYN-ACK within 200 ms means the queue is full.
	for range 64 {
		c, err := net.DialTimeout("tcp4", addr.String(), 200*time.Millisecond)
		if err != nil {
			var ne net.Error
			if errors.As(err, &ne) && ne.Timeout() || errors.Is(err, os.ErrDeadlineExceeded) {
				return addr, b
			}
			t.Fatalf("filling the backlog: %v", err)
		}
		b.conns = append(b.conns, c)
	}
	t.Skipf("the accept queue of a backlog-0 listener took %d connections without filling up", len(b.conns))
	return addr, b
}
