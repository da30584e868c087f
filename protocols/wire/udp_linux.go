//go:build !gse_portable

package wire

import (
	"net/netip"
	"os"
	"syscall"
	"time"
)

// udpSocket is the Linux fast path: a non-blocking socket opened with two system
// calls and read straight from the poller's callback. Build with -tags gse_portable
// to use udp_pooled.go on Linux instead (the tests run both).
type udpSocket struct {
	f *os.File // the socket, in the runtime's poller (deadlines work on it)
	rawReader
}

// open connects a non-blocking UDP socket to addr and hands it to the runtime's
// poller (dialSocket).
func (s *udpSocket) open(addr netip.AddrPort) error {
	sa, v6, err := sockaddr(addr)
	if err != nil {
		return err
	}
	f, raw, err := dialSocket(sa, v6)
	if err != nil {
		return err
	}
	s.f = f
	s.init(raw, s.read)
	return nil
}

func (s *udpSocket) Close() error                      { return s.f.Close() }
func (s *udpSocket) release() error                    { return s.f.Close() }
func (s *udpSocket) SetDeadline(t time.Time) error     { return s.f.SetDeadline(t) }
func (s *udpSocket) SetReadDeadline(t time.Time) error { return s.f.SetReadDeadline(t) }
func (s *udpSocket) Write(b []byte) (int, error)       { return s.f.Write(b) }

// ask sends b for a reply read at once (a plain write here).
func (s *udpSocket) ask(b []byte) error { _, err := s.Write(b); return err }

// setReadBuffer asks for a receive buffer of n bytes (best effort).
func (s *udpSocket) setReadBuffer(n int) {
	s.raw.Control(func(fd uintptr) {
		syscall.SetsockoptInt(int(fd), syscall.SOL_SOCKET, syscall.SO_RCVBUF, n)
	})
}
