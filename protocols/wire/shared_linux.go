//go:build linux && !gse_portable

package wire

import (
	"encoding/binary"
	"net/netip"
	"os"
	"sync"
	"syscall"
	"time"
	"unsafe"

	"golang.org/x/sys/unix"
)

// Shared sockets: most probes send their datagrams from a socket that many probes
// use in turn, rather than opening, connecting, registering and closing one of their
// own. Those four system calls were a fifth of the exporter's CPU per probe
// (BENCHMARKS.md, "Past the floor"). The socket is unconnected, so the kernel no
// longer filters replies by source: a reader goroutine per socket reads them in
// batches (recvmmsg) and hands each datagram to the one probe that sent a query to
// exactly that address and port, dropping every other one, as the kernel does for a
// connected socket. ICMP errors come through IP_RECVERR's error queue, which names
// the destination that caused them, so a closed port still fails as refused at once.
//
// What keeps a shared socket as hard to spoof as a fresh one (see BENCHMARKS.md):
// its port is a random ephemeral one chosen by the kernel, as before; it serves at
// most sharedUses queries and sharedAge of time, then a fresh socket with a new
// random port takes over; at most one query per destination is registered on a
// socket at a time (a second concurrent query of the same address and port gets a
// socket of its own), so a reply is never given to the wrong probe; and the
// protocols' own checks (request ids, challenge echoes, reply types) apply as before.
const (
	sharedUses = 256         // queries a socket serves before it is retired
	sharedAge  = time.Second // how long a socket takes new queries
	// sharedDrops: a socket that has dropped this many datagrams (from no registered
	// destination, or past a query's queue bound) takes no new queries. A flood shares
	// the socket's kernel receive buffer with every query on it: new ones go elsewhere.
	sharedDrops  = 64
	sharedActive = 64 // queries registered at once on one socket
	// sharedRcvBuf is the receive buffer asked for (the kernel caps it at
	// net.core.rmem_max): replies of up to sharedActive queries share it.
	sharedRcvBuf = 4 << 20
	// queueBytes and queueDatagrams bound the replies read for a query and not
	// yet taken by it (a connected socket's receive buffer bounded them before).
	queueBytes     = 256 << 10
	queueDatagrams = 256
	batchSize      = 8 // datagrams read per recvmmsg
)

// pool hands out registrations on the current shared socket of each family.
var pool sharedPool

type sharedPool struct {
	mu  sync.Mutex
	cur [2]*sharedSocket // IPv4, IPv6
}

// sharedKey is a peer address as the reader sees it in a received sockaddr.
type sharedKey struct {
	ip   [16]byte // IPv4 as IPv4-mapped
	port uint16
	zone uint32
}

// keyFor builds the key of ip (16 bytes, IPv4 mapped), port and interface zone.
// Only a link-local address is scoped: the kernel reports a zone for no other, so
// one given for any other address is dropped to match what comes back.
func keyFor(ip [16]byte, port uint16, zone uint32) sharedKey {
	if a := netip.AddrFrom16(ip); !a.IsLinkLocalUnicast() && !a.IsLinkLocalMulticast() {
		zone = 0
	}
	return sharedKey{ip: ip, port: port, zone: zone}
}

// sharedSocket is one unconnected UDP socket and the queries registered on it.
type sharedSocket struct {
	f      *os.File
	raw    syscall.RawConn
	born   time.Time
	readFn func(fd uintptr) bool

	mu      sync.Mutex
	entries map[sharedKey]*shared
	uses    int   // queries registered since the socket opened
	drops   int   // datagrams dropped since the socket opened (see sharedDrops)
	retired bool  // takes no new queries; closed when the last one leaves
	broken  error // the reader stopped on this error: no new queries
	closed  bool  // Close was called (the reader's error is then expected)
}

// shared is one query's registration on a shared socket: what UDPConn reads and
// writes through instead of a socket of its own.
type shared struct {
	s     *sharedSocket
	key   sharedKey
	sa    [unix.SizeofSockaddrInet6]byte // the destination, ready for sendto
	salen uint32

	// guarded by s.mu
	queue  [][]byte
	queued int
	err    error // an ICMP error for this destination, reported once
	ndrop  int   // datagrams dropped because the queue was full, since recv last looked

	wake     chan struct{} // signalled when queue or err changes
	deadline time.Time
	timer    *time.Timer
	done     <-chan struct{} // the probe's context when it may end a read; else nil
	prompt   bool            // done closes the connection (WithPromptCancel)

	writeFn func(fd uintptr) bool
	wbuf    []byte
	werr    error
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
	if s.broken != nil || s.uses >= sharedUses || s.drops >= sharedDrops || len(s.entries) >= sharedActive || now.Sub(s.born) >= sharedAge {
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
	fd, err := unix.Socket(family, unix.SOCK_DGRAM|unix.SOCK_NONBLOCK|unix.SOCK_CLOEXEC, unix.IPPROTO_UDP)
	if err != nil {
		return nil, err
	}
	if err := unix.SetsockoptInt(fd, level, opt, 1); err != nil {
		unix.Close(fd)
		return nil, err
	}
	_ = unix.SetsockoptInt(fd, unix.SOL_SOCKET, unix.SO_RCVBUF, sharedRcvBuf) // best effort
	f := os.NewFile(uintptr(fd), "udp-shared")
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

// readLoop reads until the socket is closed, or the poller gives up on it.
func (s *sharedSocket) readLoop() {
	err := s.raw.Read(s.readFn)
	for err == nil {
		err = s.raw.Read(s.readFn)
	}
	s.fail(err)
}

// fail ends every query on s with err, at once rather than at its deadline, and
// takes no more: the next query opens a fresh socket. Nothing to do once closed.
func (s *sharedSocket) fail(err error) {
	s.mu.Lock()
	if s.closed {
		s.mu.Unlock()
		return
	}
	s.broken = err
	var waiting []*shared
	for _, e := range s.entries {
		e.err = os.NewSyscallError("shared socket", err)
		waiting = append(waiting, e)
	}
	s.mu.Unlock()
	for _, e := range waiting {
		e.signal()
	}
}

// batch is the buffers and headers of one recvmmsg. Borrowed only while a reader
// drains its socket, so sockets waiting on silent servers hold none.
type batch struct {
	hdrs  [batchSize]unix.Mmsghdr
	iovs  [batchSize]unix.Iovec
	names [batchSize][unix.SizeofSockaddrInet6]byte
	bufs  [batchSize][]byte
}

var batches = make(chan *batch, 4)

func getBatch() *batch {
	select {
	case b := <-batches:
		return b
	default:
	}
	b := &batch{}
	for i := range b.hdrs {
		b.bufs[i] = make([]byte, MaxDatagram)
		b.iovs[i].Base = &b.bufs[i][0]
		b.iovs[i].SetLen(MaxDatagram)
		b.hdrs[i].Hdr.Iov = &b.iovs[i]
		b.hdrs[i].Hdr.SetIovlen(1)
		b.hdrs[i].Hdr.Name = &b.names[i][0]
	}
	return b
}

func putBatch(b *batch) {
	select {
	case batches <- b:
	default:
	}
}

// read drains the socket: it runs when the poller says it may be readable, and
// returns false to wait for the next datagram.
func (s *sharedSocket) read(fd uintptr) bool {
	b := getBatch()
	defer putBatch(b)
	for got, failed := 0, false; ; {
		for i := range b.hdrs {
			b.hdrs[i].Hdr.Namelen = unix.SizeofSockaddrInet6
			b.hdrs[i].Hdr.Flags = 0
		}
		n, _, errno := unix.Syscall6(unix.SYS_RECVMMSG, fd, uintptr(unsafe.Pointer(&b.hdrs[0])), batchSize, unix.MSG_DONTWAIT, 0, 0)
		switch errno {
		case 0:
		case unix.EINTR:
			continue
		case unix.EAGAIN:
			if got == 0 {
				// Woken with nothing to read: an ICMP error whose pending
				// report a sendto took (see doWrite) may wait in the queue.
				s.readErrors(fd)
			}
			return false
		default:
			// An ICMP error (IP_RECVERR): the error queue says for whom. A
			// second error with nothing queued is not one: wait, do not spin.
			if s.readErrors(fd) == 0 && failed {
				return false
			}
			failed = true
			continue
		}
		for i := range int(n) {
			h := &b.hdrs[i]
			if k, ok := keyOf(b.names[i][:h.Hdr.Namelen]); ok {
				s.deliver(k, b.bufs[i][:h.Len], h.Hdr.Flags&unix.MSG_TRUNC != 0)
			}
		}
		got += int(n)
		if int(n) < batchSize {
			return false
		}
	}
}

// keyOf reads the peer of a received sockaddr.
func keyOf(sa []byte) (sharedKey, bool) {
	if len(sa) < 2 {
		return sharedKey{}, false
	}
	switch *(*uint16)(unsafe.Pointer(&sa[0])) {
	case unix.AF_INET:
		if len(sa) >= unix.SizeofSockaddrInet4 {
			r := (*unix.RawSockaddrInet4)(unsafe.Pointer(&sa[0]))
			return keyFor(netip.AddrFrom4(r.Addr).As16(), binary.BigEndian.Uint16((*[2]byte)(unsafe.Pointer(&r.Port))[:]), 0), true
		}
	case unix.AF_INET6:
		if len(sa) >= unix.SizeofSockaddrInet6 {
			r := (*unix.RawSockaddrInet6)(unsafe.Pointer(&sa[0]))
			return keyFor(r.Addr, binary.BigEndian.Uint16((*[2]byte)(unsafe.Pointer(&r.Port))[:]), r.Scope_id), true
		}
	}
	return sharedKey{}, false
}

// deliver queues a datagram from k for the query registered for k; datagrams from
// anywhere else are dropped, as a connected socket's kernel filter drops them.
func (s *sharedSocket) deliver(k sharedKey, d []byte, truncated bool) {
	s.mu.Lock()
	e := s.entries[k]
	if e == nil || truncated {
		// A truncated datagram (over MaxDatagram) cannot happen over UDP/IP.
		s.drops++
		s.mu.Unlock()
		return
	}
	if len(e.queue) >= queueDatagrams || e.queued+len(d) > queueBytes {
		e.ndrop++
		s.drops++
		s.mu.Unlock()
		return
	}
	b := make([]byte, len(d))
	copy(b, d)
	e.queue = append(e.queue, b)
	e.queued += len(b)
	s.mu.Unlock()
	e.signal()
}

func (e *shared) signal() {
	select {
	case e.wake <- struct{}{}:
	default:
	}
}

// readErrors hands each queued ICMP error to the query of the destination it
// names, and returns how many it read.
func (s *sharedSocket) readErrors(fd uintptr) int {
	var oob [128]byte
	var p [1]byte
	n := 0
	for ; n < 64; n++ {
		_, oobn, _, from, err := unix.Recvmsg(int(fd), p[:], oob[:], unix.MSG_ERRQUEUE|unix.MSG_DONTWAIT)
		if err != nil {
			break
		}
		errno := icmpErrno(oob[:oobn])
		if errno == 0 {
			continue
		}
		var k sharedKey
		switch sa := from.(type) {
		case *unix.SockaddrInet4:
			k = keyFor(netip.AddrFrom4(sa.Addr).As16(), uint16(sa.Port), 0)
		case *unix.SockaddrInet6:
			k = keyFor(sa.Addr, uint16(sa.Port), sa.ZoneId)
		default:
			continue
		}
		s.mu.Lock()
		e := s.entries[k]
		if e != nil {
			e.err = os.NewSyscallError("recvmsg", errno)
		}
		s.mu.Unlock()
		if e != nil {
			e.signal()
		}
	}
	return n
}

// icmpErrno reads ee_errno from the IP_RECVERR / IPV6_RECVERR control message.
func icmpErrno(oob []byte) syscall.Errno {
	msgs, err := unix.ParseSocketControlMessage(oob)
	if err != nil {
		return 0
	}
	for _, m := range msgs {
		if (m.Header.Level == unix.IPPROTO_IP && m.Header.Type == unix.IP_RECVERR ||
			m.Header.Level == unix.IPPROTO_IPV6 && m.Header.Type == unix.IPV6_RECVERR) && len(m.Data) >= 4 {
			return syscall.Errno(*(*uint32)(unsafe.Pointer(&m.Data[0])))
		}
	}
	return 0
}

// write sends one datagram to the registered destination.
func (e *shared) write(b []byte) error {
	if e.prompt && e.cancelled() {
		return errProbeCancelled
	}
	e.wbuf, e.werr = b, nil
	err := e.s.raw.Write(e.writeFn)
	e.wbuf = nil
	if err == nil {
		err = e.werr
	}
	return err
}

// doWrite sends e.wbuf. The kernel reports an ICMP error pending on the socket to
// the next sendto, whoever's destination caused it (and clears it): on an error the
// error queue is handed out to the queries it names, and the datagram sent again.
func (e *shared) doWrite(fd uintptr) bool {
	var p unsafe.Pointer
	if len(e.wbuf) > 0 {
		p = unsafe.Pointer(&e.wbuf[0])
	}
	for again := true; ; {
		_, _, errno := unix.Syscall6(unix.SYS_SENDTO, fd, uintptr(p), uintptr(len(e.wbuf)), 0, uintptr(unsafe.Pointer(&e.sa[0])), uintptr(e.salen))
		switch {
		case errno == 0:
			return true
		case errno == unix.EAGAIN:
			return false
		case errno == unix.EINTR:
		case again:
			again = false
			e.s.readErrors(fd)
		default:
			e.werr = os.NewSyscallError("sendto", errno)
			return true
		}
	}
}

func (e *shared) cancelled() bool {
	select {
	case <-e.done:
		return true
	default:
		return false
	}
}

// recv waits for the next datagram from the destination, or its ICMP error; dropped
// counts the datagrams dropped for a full queue meanwhile.
func (e *shared) recv() (b []byte, dropped int, err error) {
	for {
		e.s.mu.Lock()
		dropped, e.ndrop = dropped+e.ndrop, 0
		if len(e.queue) > 0 {
			// Shifted down rather than resliced, so the pooled entry keeps its array.
			b = e.queue[0]
			n := copy(e.queue, e.queue[1:])
			e.queue[n] = nil
			e.queue = e.queue[:n]
			e.queued -= len(b)
			e.s.mu.Unlock()
			return b, dropped, nil
		}
		if err = e.err; err != nil {
			e.err = nil
			e.s.mu.Unlock()
			return nil, dropped, err
		}
		e.s.mu.Unlock()
		var expired <-chan time.Time
		if !e.deadline.IsZero() {
			d := time.Until(e.deadline)
			if d <= 0 {
				return nil, dropped, os.ErrDeadlineExceeded
			}
			if e.timer == nil {
				e.timer = time.NewTimer(d)
			} else {
				e.timer.Reset(d)
			}
			expired = e.timer.C
		}
		select {
		case <-e.wake:
		case <-expired:
			return nil, dropped, os.ErrDeadlineExceeded
		case <-e.done:
			if e.prompt {
				return nil, dropped, errProbeCancelled
			}
			return nil, dropped, os.ErrDeadlineExceeded
		}
	}
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
