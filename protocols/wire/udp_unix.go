//go:build unix

package wire

import (
	"net/netip"
	"os"
	"syscall"

	"github.com/gameserver-exporter/gameserver_exporter/protocols/wire/rawsys"
)

// sockaddr is addr for connect(2); v6 names the socket family it needs.
func sockaddr(addr netip.AddrPort) (sa syscall.Sockaddr, v6 bool, err error) {
	ip := addr.Addr().Unmap()
	if ip.Is4() {
		return &syscall.SockaddrInet4{Port: int(addr.Port()), Addr: ip.As4()}, false, nil
	}
	// Refuse an unknown zone here rather than let the connect fail with a vaguer error.
	zone, err := zoneIndex(ip.Zone())
	if err != nil {
		return nil, true, err
	}
	return &syscall.SockaddrInet6{Port: int(addr.Port()), Addr: ip.As16(), ZoneId: zone}, true, nil
}

// dialSocket opens a non-blocking UDP socket connected to sa and hands it to the
// runtime's poller (os.NewFile), with its RawConn for rawReader. net.DialUDP
// would add three more system calls (SO_BROADCAST, getsockname, getpeername) and
// several allocations for addresses nobody reads here, and its depth, deep in a
// probe, would grow the goroutine's stack past 4 KiB: each of 10,000 probes
// waiting on silent servers would hold 8.
func dialSocket(sa syscall.Sockaddr, v6 bool) (*os.File, syscall.RawConn, error) {
	family := syscall.AF_INET
	if v6 {
		family = syscall.AF_INET6
	}
	fd, err := newSocket(family)
	if err != nil {
		return nil, nil, os.NewSyscallError("socket", err)
	}
	if err := syscall.Connect(fd, sa); err != nil {
		syscall.Close(fd)
		return nil, nil, os.NewSyscallError("connect", err)
	}
	f := os.NewFile(uintptr(fd), "udp")
	raw, err := f.SyscallConn()
	if err != nil {
		f.Close()
		return nil, nil, err
	}
	return f, raw, nil
}

// rawReader reads a socket's datagrams straight from the poller's callback.
type rawReader struct {
	raw syscall.RawConn
	// readFn is bound once per socket: a closure per recv would cost allocations
	// on every datagram. It leaves its result in got/gotErr.
	readFn func(fd uintptr) bool
	got    []byte
	gotErr error
}

// init binds the socket and its read callback (r.read, or a callback that calls
// it) once: a method value made per read would cost an allocation.
func (r *rawReader) init(raw syscall.RawConn, readFn func(fd uintptr) bool) {
	r.raw, r.readFn = raw, readFn
}

// recv waits for the next datagram and returns a copy of it sized to fit.
func (r *rawReader) recv() ([]byte, error) {
	r.got, r.gotErr = nil, nil
	err := r.raw.Read(r.readFn)
	if err == nil {
		err = r.gotErr
	}
	if err != nil {
		return nil, err
	}
	return r.got, nil
}

func (r *rawReader) read(fd uintptr) (done bool) {
	r.got, r.gotErr, done = readDatagram(fd)
	return done
}

// readDatagram reads one datagram from the non-blocking socket fd when the poller
// says it may be readable; done is false when there was none yet. It borrows a read
// buffer only for the moment the datagram is copied out: a 64 KiB buffer held
// across each blocking read costs a large allocation per query once the free list
// runs dry, and thousands of probes waiting on silent servers hold none.
func readDatagram(fd uintptr) (b []byte, err error, done bool) {
	buf := getBuf()
	defer putBuf(buf)
	n, errno := rawsys.Read(fd, buf)
	switch errno {
	case 0:
	case syscall.EAGAIN:
		return nil, nil, false
	default:
		return nil, errno, true
	}
	b = make([]byte, n)
	copy(b, buf[:n])
	return b, nil, true
}
