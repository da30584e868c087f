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
// to use udp_portable.go on Linux instead (the tests run both).
type udpSocket struct {
	f   *os.File // the socket, in the runtime's poller (deadlines work on it)
	raw syscall.RawConn
	// readFn is bound once per socket: a closure per recv would cost allocations
	// on every datagram. It leaves its result in got/gotErr.
	readFn func(fd uintptr) bool
	got    []byte
	gotErr error
}

// open connects a non-blocking UDP socket to addr and hands it to the runtime's
// poller. net.DialUDP would add three more system calls per probe (SO_BROADCAST,
// getsockname, getpeername) and several allocations for addresses nobody reads here.
func (s *udpSocket) open(addr netip.AddrPort) error {
	ip := addr.Addr()
	family := syscall.AF_INET6
	var sa syscall.Sockaddr
	if ip.Is4() || ip.Is4In6() {
		family, sa = syscall.AF_INET, &syscall.SockaddrInet4{Port: int(addr.Port()), Addr: ip.Unmap().As4()}
	} else {
		zone, err := zoneIndex(ip.Zone())
		if err != nil {
			return err
		}
		sa = &syscall.SockaddrInet6{Port: int(addr.Port()), Addr: ip.As16(), ZoneId: zone}
	}
	fd, err := syscall.Socket(family, syscall.SOCK_DGRAM|syscall.SOCK_NONBLOCK|syscall.SOCK_CLOEXEC, syscall.IPPROTO_UDP)
	if err != nil {
		return os.NewSyscallError("socket", err)
	}
	if err := syscall.Connect(fd, sa); err != nil {
		syscall.Close(fd)
		return os.NewSyscallError("connect", err)
	}
	// A non-blocking descriptor: os.NewFile registers it with the poller.
	f := os.NewFile(uintptr(fd), "udp")
	raw, err := f.SyscallConn()
	if err != nil {
		f.Close()
		return err
	}
	s.f, s.raw = f, raw
	s.readFn = s.read
	return nil
}

func (s *udpSocket) Close() error                      { return s.f.Close() }
func (s *udpSocket) SetDeadline(t time.Time) error     { return s.f.SetDeadline(t) }
func (s *udpSocket) SetReadDeadline(t time.Time) error { return s.f.SetReadDeadline(t) }
func (s *udpSocket) Write(b []byte) (int, error)       { return s.f.Write(b) }

// recv waits for the next datagram and returns a copy of it sized to fit.
func (s *udpSocket) recv() ([]byte, error) {
	s.got, s.gotErr = nil, nil
	err := s.raw.Read(s.readFn)
	if err == nil {
		err = s.gotErr
	}
	if err != nil {
		return nil, err
	}
	return s.got, nil
}

// read runs when the socket may be readable. It borrows a read buffer only for the
// moment a datagram is copied out.
func (s *udpSocket) read(fd uintptr) bool {
	buf := getBuf()
	n, err := syscall.Read(int(fd), buf)
	if err == syscall.EAGAIN || err == syscall.EINTR {
		putBuf(buf)
		return false
	}
	if err != nil {
		s.gotErr = err
	} else {
		s.got = make([]byte, n)
		copy(s.got, buf[:n])
	}
	putBuf(buf)
	return true
}

// setReadBuffer asks for a receive buffer of n bytes (best effort).
func (s *udpSocket) setReadBuffer(n int) {
	s.raw.Control(func(fd uintptr) {
		syscall.SetsockoptInt(int(fd), syscall.SOL_SOCKET, syscall.SO_RCVBUF, n)
	})
}
