//go:build unix && (!linux || gse_portable)

package wire

// udpSocket on the BSDs and macOS (and on Linux with -tags gse_portable, so the
// tests and benchmarks cover it): a connected socket, as on Linux, so the kernel
// drops datagrams from elsewhere and an ICMP port unreachable fails the next read.
// Rather than dialled, registered with the poller and closed for each query
// (net.DialUDP: seven system calls and a dozen allocations, a quarter of a probe's
// CPU), a socket is taken from a small free list and connected again to the
// query's address. A connect names the new peer (the BSDs disconnect the old one
// first; Linux keeps the source address the old route chose, so a query of another
// IP address undoes the old connect first, see disconnect). What arrived since the
// last query is read and dropped right after the new connect, before anything is
// sent. A socket serves at most socketUses queries and socketAge of time, as
// Linux's shared ones do, so its port changes as often.
//
// Why not an unconnected socket shared by many queries, as on Linux: off Linux
// nothing names the destination of an ICMP error on an unconnected socket (Linux
// has IP_RECVERR), so a closed port would wait for the deadline instead of failing
// as refused; and only FreeBSD can read a batch of datagrams at once (recvmmsg).

import (
	"errors"
	"net/netip"
	"os"
	"syscall"
	"time"

	"github.com/gameserver-exporter/gameserver_exporter/protocols/wire/rawsys"
)

// idleSockets holds at most this many sockets of each family between queries:
// enough for the probes a busy exporter runs at once; past it a query's socket
// is closed as before.
const idleSockets = 64

var idle = [2]chan *pooledSocket{make(chan *pooledSocket, idleSockets), make(chan *pooledSocket, idleSockets)}

// pooledSocket is one socket and what it is reused with.
type pooledSocket struct {
	c    *os.File // the socket, in the runtime's poller (deadlines work on it)
	v6   bool
	born time.Time
	uses int
	rawReader
	// connectFn is bound once per socket, as readFn is: a closure per query would
	// cost two allocations. It connects to peer and leaves its error in ctlErr.
	connectFn func(fd uintptr)
	peer      syscall.Sockaddr
	ctlErr    error
	// ip is the address the socket is connected to; moved, that the query it is
	// taken for names another (connect undoes the old connect first).
	ip    netip.Addr
	moved bool
	// pending is the request ask left for the next recv to send.
	pending []byte
}

// idleList is the free list of the family.
func idleList(v6 bool) chan *pooledSocket {
	if v6 {
		return idle[1]
	}
	return idle[0]
}

type udpSocket struct {
	p   *pooledSocket
	own bool // its receive buffer was changed (setReadBuffer): closed, not reused
}

func (s *udpSocket) open(addr netip.AddrPort) error {
	sa, v6, err := sockaddr(addr)
	if err != nil {
		return err
	}
	for {
		p := takeIdle(v6)
		if p == nil {
			break
		}
		if p.connect(sa, addr.Addr()) == nil {
			s.p = p
			return nil
		}
		p.c.Close() // a socket that cannot be connected again is dropped
	}
	f, raw, err := dialSocket(sa, v6)
	if err != nil {
		return err
	}
	p := &pooledSocket{c: f, v6: v6, born: time.Now(), ip: addr.Addr()}
	p.init(raw, p.sendOrRead)
	p.connectFn = p.doConnect
	s.p = p
	return nil
}

// takeIdle returns a socket of the family from the free list, closing the ones
// past their age on the way; nil when there is none.
func takeIdle(v6 bool) *pooledSocket {
	l := idleList(v6)
	for {
		select {
		case p := <-l:
			if time.Since(p.born) < socketAge {
				return p
			}
			p.c.Close()
		default:
			return nil
		}
	}
}

// maxDrain bounds the datagrams a reused socket drops before its query: a socket
// that still has more (a flood) is closed instead.
const maxDrain = 256

var errBusySocket = errors.New("wire: datagrams still arriving on an idle socket")

// connect names the socket's new peer and drops what arrived since its last query:
// late replies to it, and an ICMP error it caused (read as ECONNREFUSED, which the
// read clears).
func (p *pooledSocket) connect(sa syscall.Sockaddr, ip netip.Addr) error {
	p.peer = sa
	p.moved, p.ip = ip != p.ip, ip
	p.ctlErr = nil
	if err := p.raw.Control(p.connectFn); err != nil {
		return err
	}
	return p.ctlErr
}

func (p *pooledSocket) doConnect(fd uintptr) {
	if p.moved {
		if p.ctlErr = disconnect(fd); p.ctlErr != nil {
			return
		}
	}
	if p.ctlErr = syscall.Connect(int(fd), p.peer); p.ctlErr != nil {
		return
	}
	var one [1]byte // a datagram read into a short buffer is dropped whole
	for range maxDrain {
		_, errno := rawsys.Read(fd, one[:])
		switch errno {
		case syscall.EAGAIN:
			return
		case 0, syscall.ECONNREFUSED:
		default:
			p.ctlErr = errno
			return
		}
	}
	p.ctlErr = errBusySocket
}

// release returns the socket to the free list when it may serve another query,
// or closes it.
func (s *udpSocket) release() error {
	s.flush() // a request asked, though no reply was read
	p := s.p
	s.p = nil
	p.uses++
	l := idleList(p.v6)
	// takeIdle judges its age.
	if s.own || p.uses >= socketUses || len(l) == cap(l) {
		return p.c.Close()
	}
	select {
	case l <- p:
		return nil
	default:
		return p.c.Close()
	}
}

func (s *udpSocket) Close() error                      { return s.p.c.Close() }
func (s *udpSocket) SetDeadline(t time.Time) error     { return s.p.c.SetDeadline(t) }
func (s *udpSocket) SetReadDeadline(t time.Time) error { return s.p.c.SetReadDeadline(t) }

// Write sends b now, after a request ask left for the read.
func (s *udpSocket) Write(b []byte) (int, error) {
	if err := s.flush(); err != nil {
		return 0, err
	}
	return s.p.c.Write(b)
}

// ask sends b for a reply read at once: it leaves b for recv to send from the
// poller's read callback. Sent once the poller's readiness is reset, its reply
// cannot be missed, and the read that would find nothing yet, a system call a
// query, is not made.
func (s *udpSocket) ask(b []byte) error {
	if err := s.flush(); err != nil {
		return err
	}
	s.p.pending = b
	return nil
}

// flush sends a request ask left unsent.
func (s *udpSocket) flush() error {
	p := s.p
	if p.pending == nil {
		return nil
	}
	b := p.pending
	p.pending = nil
	_, err := p.c.Write(b)
	return err
}

func (s *udpSocket) recv() ([]byte, error) {
	p := s.p
	for {
		b, err := p.recv()
		if err != nil || b != nil || p.pending == nil {
			return b, err
		}
		// The send buffer was full: a plain write waits for room.
		if err := s.flush(); err != nil {
			return nil, err
		}
	}
}

// sendOrRead is the socket's read callback: it sends the pending request, or
// else reads a datagram (rawReader.read).
func (p *pooledSocket) sendOrRead(fd uintptr) bool {
	b := p.pending
	if b == nil {
		return p.read(fd)
	}
	switch _, errno := rawsys.Write(fd, b); errno {
	case syscall.EAGAIN:
		return true // recv writes it the plain way
	case 0:
		p.pending = nil
		return false // and wait for the reply
	default:
		p.pending, p.gotErr = nil, errno
		return true
	}
}

// setReadBuffer asks for a receive buffer of n bytes (best effort); the socket is
// then not reused.
func (s *udpSocket) setReadBuffer(n int) {
	s.own = true
	s.p.raw.Control(func(fd uintptr) {
		syscall.SetsockoptInt(int(fd), syscall.SOL_SOCKET, syscall.SO_RCVBUF, n)
	})
}
