//go:build linux && !gse_portable

package wire

// Demultiplexing: each datagram goes to the one query registered for its source
// address and port; everything else is dropped and counted (the flood guard:
// a socket that has dropped sharedDrops datagrams takes no new queries).

import (
	"encoding/binary"
	"net/netip"
	"unsafe"

	"golang.org/x/sys/unix"
)

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
func (s *sharedSocket) deliver(k sharedKey, d []byte, truncated bool, at int64) {
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
	e.queue = append(e.queue, datagram{b, at})
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
