package hostile

import (
	"bytes"
	"io"
	"net"
	"net/netip"
	"sync"
	"testing"
	"time"
)

var loopback = netip.MustParseAddr("127.0.0.1")

// server is a fake server the test closes itself, before counting goroutines.
type server interface{ Close() }

// udpServer is a fake UDP server on 127.0.0.1. Its handler runs on the read loop's
// goroutine; replies that must come later or keep coming run on goroutines of the
// server (later, stream), which Close stops and waits for.
type udpServer struct {
	pc   *net.UDPConn
	addr netip.AddrPort
	done chan struct{}
	wg   sync.WaitGroup
	once sync.Once
}

// udpHandler answers one datagram from a client.
type udpHandler func(s *udpServer, req []byte, from netip.AddrPort)

func startUDP(t testing.TB, h udpHandler) *udpServer {
	t.Helper()
	pc, err := net.ListenUDP("udp4", net.UDPAddrFromAddrPort(netip.AddrPortFrom(loopback, 0)))
	if err != nil {
		t.Fatal(err)
	}
	s := &udpServer{pc: pc, addr: pc.LocalAddr().(*net.UDPAddr).AddrPort(), done: make(chan struct{})}
	s.wg.Go(func() {
		buf := make([]byte, 65535)
		for {
			n, from, err := pc.ReadFromUDPAddrPort(buf)
			if err != nil {
				return
			}
			if h != nil {
				h(s, bytes.Clone(buf[:n]), from)
			}
		}
	})
	t.Cleanup(s.Close)
	return s
}

// send writes datagrams to a client; errors are ignored (the client may be gone).
// A nil datagram is not sent: a dialect's answer to a request it ignores.
func (s *udpServer) send(to netip.AddrPort, ds ...[]byte) {
	for _, d := range ds {
		if d == nil {
			continue
		}
		s.pc.WriteToUDPAddrPort(d, to)
	}
}

// later runs f after d, unless the server is closed first.
func (s *udpServer) later(d time.Duration, f func()) {
	s.wg.Go(func() { // the read loop holds a count, so Add never races Close's Wait
		tm := time.NewTimer(d)
		defer tm.Stop()
		select {
		case <-tm.C:
			f()
		case <-s.done:
		}
	})
}

// stream calls f(0), f(1), ... until it returns false, the server closes, or the
// stream has run for twice the probe timeout (the client is gone by then). With
// every > 0 it calls f once per interval: a client reading big datagrams keeps up
// with a paced sender, where a tight loop would mostly overflow its socket buffer.
func (s *udpServer) stream(every time.Duration, f func(i int) bool) {
	s.wg.Go(func() {
		var tick <-chan time.Time
		if every > 0 {
			tk := time.NewTicker(every)
			defer tk.Stop()
			tick = tk.C
		}
		stop := time.Now().Add(2 * probeTimeout)
		for i := 0; time.Now().Before(stop); i++ {
			if tick != nil {
				select {
				case <-s.done:
					return
				case <-tick:
				}
			} else {
				select {
				case <-s.done:
					return
				default:
				}
			}
			if !f(i) {
				return
			}
		}
	})
}

// at is the server's address and the server, as a case's start returns them.
func (s *udpServer) at() (netip.AddrPort, server) { return s.addr, s }

func (s *udpServer) Close() {
	s.once.Do(func() {
		close(s.done)
		s.pc.Close()
		s.wg.Wait()
	})
}

// tcpServer is a fake TCP server on 127.0.0.1 running its handler per connection.
// Close closes the listener and every open connection, and waits for the handlers.
type tcpServer struct {
	l     net.Listener
	addr  netip.AddrPort
	done  chan struct{}
	wg    sync.WaitGroup
	once  sync.Once
	mu    sync.Mutex
	conns map[net.Conn]struct{}
}

func startTCP(t testing.TB, h func(s *tcpServer, c net.Conn)) *tcpServer {
	t.Helper()
	l, err := net.Listen("tcp4", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	s := &tcpServer{l: l, addr: l.Addr().(*net.TCPAddr).AddrPort(), done: make(chan struct{}), conns: map[net.Conn]struct{}{}}
	s.wg.Go(func() {
		for {
			c, err := l.Accept()
			if err != nil {
				return
			}
			s.mu.Lock()
			select {
			case <-s.done:
				s.mu.Unlock()
				c.Close()
				return
			default:
			}
			s.conns[c] = struct{}{}
			s.wg.Add(1)
			s.mu.Unlock()
			go func() {
				defer s.wg.Done()
				defer func() {
					s.mu.Lock()
					delete(s.conns, c)
					s.mu.Unlock()
					c.Close()
				}()
				h(s, c)
			}()
		}
	})
	t.Cleanup(s.Close)
	return s
}

// wait blocks for d or until the server closes; false means it closed.
func (s *tcpServer) wait(d time.Duration) bool {
	tm := time.NewTimer(d)
	defer tm.Stop()
	select {
	case <-tm.C:
		return true
	case <-s.done:
		return false
	}
}

func (s *tcpServer) at() (netip.AddrPort, server) { return s.addr, s }

func (s *tcpServer) Close() {
	s.once.Do(func() {
		s.mu.Lock()
		close(s.done)
		for c := range s.conns {
			c.Close()
		}
		s.mu.Unlock()
		s.l.Close()
		s.wg.Wait()
	})
}

// drain reads what the client sends until the connection closes.
func drain(c net.Conn) { io.Copy(io.Discard, c) }

type nopServer struct{}

func (nopServer) Close() {}
