//go:build linux && !gse_portable

package wire

import (
	"os"
	"sync"
	"syscall"
	"time"

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
// most socketUses queries and socketAge of time, then a fresh socket with a new
// random port takes over; at most one query per destination is registered on a
// socket at a time (a second concurrent query of the same address and port gets a
// socket of its own), so a reply is never given to the wrong probe; and the
// protocols' own checks (request ids, challenge echoes, reply types) apply as before.
const (
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

// datagram is a reply read for a query, with the kernel's time of its arrival
// (SO_TIMESTAMPNS, Unix nanoseconds; 0: unknown).
type datagram struct {
	b  []byte
	at int64
}

// shared is one query's registration on a shared socket: what UDPConn reads and
// writes through instead of a socket of its own.
type shared struct {
	s     *sharedSocket
	key   sharedKey
	sa    [unix.SizeofSockaddrInet6]byte // the destination, ready for sendto
	salen uint32

	// guarded by s.mu
	queue  []datagram
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
