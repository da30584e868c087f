//go:build !unix

package wire

import (
	"net"
	"net/netip"
	"time"
)

// udpSocket on Windows (and any other system without Unix sockets): a socket from
// net.DialUDP per query, connected like the Unix ones, so datagrams from elsewhere
// are dropped and an ICMP port unreachable fails the next read (udp_windows.go).
// Its reads go through overlapped I/O, which has no readiness callback to borrow a
// buffer in (udp_pooled.go), nor a cheap way to connect a socket again.
type udpSocket struct {
	c *net.UDPConn
}

func (s *udpSocket) open(addr netip.AddrPort) error {
	ip := addr.Addr().Unmap()
	if ip.Is6() && ip.Zone() != "" {
		// Refuse an unknown zone here as the Linux path does, rather than
		// letting the connect fail with a vaguer error.
		if _, err := zoneIndex(ip.Zone()); err != nil {
			return err
		}
	}
	c, err := net.DialUDP("udp", nil, net.UDPAddrFromAddrPort(netip.AddrPortFrom(ip, addr.Port())))
	if err != nil {
		return err
	}
	reportICMP(c)
	s.c = c
	return nil
}

func (s *udpSocket) Close() error                      { return s.c.Close() }
func (s *udpSocket) release() error                    { return s.c.Close() }
func (s *udpSocket) SetDeadline(t time.Time) error     { return s.c.SetDeadline(t) }
func (s *udpSocket) SetReadDeadline(t time.Time) error { return s.c.SetReadDeadline(t) }
func (s *udpSocket) Write(b []byte) (int, error)       { return s.c.Write(b) }

// ask sends b for a reply read at once (a plain write here).
func (s *udpSocket) ask(b []byte) error { _, err := s.Write(b); return err }

// recv waits for the next datagram and returns a copy of it sized to fit. The read
// buffer is MaxDatagram bytes, so no datagram is cut short; unlike the Linux path
// it is held for as long as the read blocks.
func (s *udpSocket) recv() ([]byte, error) {
	buf := getBuf()
	defer putBuf(buf)
	n, err := s.c.Read(buf)
	if err != nil {
		return nil, refusedErr(err)
	}
	b := make([]byte, n)
	copy(b, buf[:n])
	return b, nil
}

// setReadBuffer asks for a receive buffer of n bytes (best effort).
func (s *udpSocket) setReadBuffer(n int) { s.c.SetReadBuffer(n) }
