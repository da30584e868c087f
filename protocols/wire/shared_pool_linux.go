//go:build linux && !gse_portable

package wire

// The pool of shared sockets and a query's registration on one: which socket a
// query joins, when a socket is retired, and leaving it.

import (
	"encoding/binary"
	"net/netip"
	"os"
	"sync"
	"time"
	"unsafe"

	"golang.org/x/sys/unix"
)

// pool hands out registrations on the current shared socket of each family.
var pool sharedPool

type sharedPool struct {
	mu  sync.Mutex
	cur [2]*sharedSocket // IPv4, IPv6
}

// joinShared registers a query to addr on a shared socket; nil when it must have a
// socket of its own (another query to addr is registered, or no socket opens).
func joinShared(addr netip.AddrPort) *shared {
	ip := addr.Addr()
	fam := 0
	if !ip.Is4() && !ip.Is4In6() {
		fam = 1
	}
	e := getEntry()
	if !e.setAddr(addr, fam) {
		putEntry(e)
		return nil
	}
	now := time.Now()
	pool.mu.Lock()
	defer pool.mu.Unlock()
	s := pool.cur[fam]
	ok, full := false, true
	if s != nil {
		ok, full = s.register(e, now)
	}
	if full {
		if s != nil {
			s.retire()
		}
		var err error
		if s, err = openShared(fam, now); err != nil {
			pool.cur[fam] = nil
			putEntry(e)
			return nil
		}
		pool.cur[fam] = s
		ok, _ = s.register(e, now)
	}
	if !ok {
		putEntry(e) // another query to addr is registered on s
		return nil
	}
	e.s = s
	return e
}

// entryPool recycles registrations with their channel, timer and write callback:
// five allocations a query. A reader may still signal an entry it found registered
// just before the entry left and was reused: a spurious wake-up, which recv
// tolerates (it looks at the queue again).
var entryPool = sync.Pool{New: func() any {
	e := &shared{wake: make(chan struct{}, 1)}
	e.writeFn = e.doWrite
	return e
}}

func getEntry() *shared { return entryPool.Get().(*shared) }

// putEntry clears e (keeping its channel, timer and callback) for the next query.
func putEntry(e *shared) {
	select {
	case <-e.wake:
	default:
	}
	// Field by field: wake is read without a lock by a reader signalling late, and
	// never changes.
	clear(e.queue)
	e.queue = e.queue[:0]
	if cap(e.queue) > 16 {
		e.queue = nil
	}
	e.s, e.key, e.sa, e.salen = nil, sharedKey{}, [unix.SizeofSockaddrInet6]byte{}, 0
	e.queued, e.err, e.ndrop = 0, nil, 0
	e.deadline, e.done, e.prompt = time.Time{}, nil, false
	e.wbuf, e.werr = nil, nil
	entryPool.Put(e)
}

// setAddr fills the key and the sockaddr for addr on a socket of family fam.
func (e *shared) setAddr(addr netip.AddrPort, fam int) bool {
	ip := addr.Addr()
	if fam == 0 {
		e.key = keyFor(netip.AddrFrom4(ip.Unmap().As4()).As16(), addr.Port(), 0) // zone dropped
		sa := (*unix.RawSockaddrInet4)(unsafe.Pointer(&e.sa))
		sa.Family = unix.AF_INET
		binary.BigEndian.PutUint16((*[2]byte)(unsafe.Pointer(&sa.Port))[:], addr.Port())
		sa.Addr = ip.Unmap().As4()
		e.salen = unix.SizeofSockaddrInet4
		return true
	}
	zone, err := zoneIndex(ip.Zone())
	if err != nil {
		return false // the dedicated path reports the unknown zone
	}
	e.key = keyFor(ip.As16(), addr.Port(), zone)
	sa := (*unix.RawSockaddrInet6)(unsafe.Pointer(&e.sa))
	sa.Family = unix.AF_INET6
	binary.BigEndian.PutUint16((*[2]byte)(unsafe.Pointer(&sa.Port))[:], addr.Port())
	sa.Addr = ip.As16()
	sa.Scope_id = zone
	e.salen = unix.SizeofSockaddrInet6
	return true
}

// register adds e to s unless s takes no more queries (full: it is broken, used
// up, flooded, old or has sharedActive queries) or already has a query to e's
// destination.
func (s *sharedSocket) register(e *shared, now time.Time) (ok, full bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.broken != nil || s.uses >= socketUses || s.drops >= sharedDrops || len(s.entries) >= sharedActive || now.Sub(s.born) >= socketAge {
		return false, true
	}
	if _, busy := s.entries[e.key]; busy {
		return false, false
	}
	s.entries[e.key] = e
	s.uses++
	return true, false
}

// retire stops new queries on s and closes it once the last one has left.
func (s *sharedSocket) retire() {
	s.mu.Lock()
	s.retired = true
	idle := len(s.entries) == 0
	s.closed = s.closed || idle
	s.mu.Unlock()
	if idle {
		s.f.Close()
	}
}

// openShared opens an unconnected socket of family fam (0 IPv4, 1 IPv6) with ICMP
// errors queued, and starts its reader.
func openShared(fam int, now time.Time) (*sharedSocket, error) {
	family, level, opt := unix.AF_INET, unix.IPPROTO_IP, unix.IP_RECVERR
	if fam == 1 {
		family, level, opt = unix.AF_INET6, unix.IPPROTO_IPV6, unix.IPV6_RECVERR
	}
	// Raw system calls, as doWrite's: a socket opens every 256 queries.
	fd, _, errno := unix.RawSyscall(unix.SYS_SOCKET, uintptr(family), unix.SOCK_DGRAM|unix.SOCK_NONBLOCK|unix.SOCK_CLOEXEC, unix.IPPROTO_UDP)
	if errno != 0 {
		return nil, os.NewSyscallError("socket", errno)
	}
	if err := rawSetsockopt(fd, level, opt, 1); err != nil {
		unix.Close(int(fd))
		return nil, err
	}
	_ = rawSetsockopt(fd, unix.SOL_SOCKET, unix.SO_RCVBUF, sharedRcvBuf) // best effort
	// The kernel stamps each datagram's arrival: a reply that then waits for a busy
	// CPU is not counted as the server's latency (see Trace.Waited). Best effort.
	_ = rawSetsockopt(fd, unix.SOL_SOCKET, unix.SO_TIMESTAMPNS, 1)
	f := os.NewFile(fd, "udp-shared")
	raw, err := f.SyscallConn()
	if err != nil {
		f.Close()
		return nil, err
	}
	s := &sharedSocket{f: f, raw: raw, born: now, entries: make(map[sharedKey]*shared)}
	s.readFn = s.read
	go s.readLoop()
	return s, nil
}

// leave ends the registration; the socket closes if it was retired and this was
// its last query.
func (e *shared) leave() {
	if e.timer != nil {
		e.timer.Stop()
	}
	s := e.s
	s.mu.Lock()
	delete(s.entries, e.key)
	closeIt := s.retired && len(s.entries) == 0
	s.closed = s.closed || closeIt
	s.mu.Unlock()
	if closeIt {
		s.f.Close()
	}
	putEntry(e)
}

// rawSetsockopt sets an int option with a raw system call.
func rawSetsockopt(fd uintptr, level, opt, value int) error {
	v := int32(value)
	if _, _, errno := unix.RawSyscall6(unix.SYS_SETSOCKOPT, fd, uintptr(level), uintptr(opt), uintptr(unsafe.Pointer(&v)), 4, 0); errno != 0 {
		return os.NewSyscallError("setsockopt", errno)
	}
	return nil
}
