// Package prototest holds test helpers shared by the protocol packages: fake servers
// on loopback (scripted, silent, dripping), the real captures in ../shared/fixtures
// read in place, and the qstat reference client. Test code only.
package prototest

import (
	"bufio"
	"context"
	"encoding/json"
	"net"
	"net/netip"
	"os"
	"os/exec"
	"path/filepath"
	"sync"
	"testing"
	"time"
)

// Handler answers one request datagram with zero or more reply datagrams.
type Handler func(req []byte) [][]byte

// UDP starts a fake UDP server on 127.0.0.1:0 that calls h for every datagram it
// receives and sends back what h returns, in order. It stops when the test ends.
func UDP(t testing.TB, h Handler) netip.AddrPort {
	t.Helper()
	pc, err := net.ListenPacket("udp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	return ServeUDP(t, pc, h)
}

// ServeUDP is UDP on a socket of the test's own (a port shared with a TCP
// fake): it answers each datagram on pc with what h returns until the test
// ends, then closes pc.
func ServeUDP(t testing.TB, pc net.PacketConn, h Handler) netip.AddrPort {
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		buf := make([]byte, 65535)
		for {
			n, from, err := pc.ReadFrom(buf)
			if err != nil {
				return
			}
			req := append([]byte(nil), buf[:n]...)
			for _, r := range h(req) {
				pc.WriteTo(r, from)
			}
		}
	}()
	t.Cleanup(func() { pc.Close(); wg.Wait() })
	return pc.LocalAddr().(*net.UDPAddr).AddrPort()
}

// Silent starts a UDP server that reads and never answers.
func Silent(t testing.TB) netip.AddrPort {
	return UDP(t, func([]byte) [][]byte { return nil })
}

// ClosedUDPPort returns a loopback UDP port with nothing listening (ICMP unreachable).
func ClosedUDPPort(t testing.TB) netip.AddrPort {
	t.Helper()
	pc, err := net.ListenPacket("udp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	a := pc.LocalAddr().(*net.UDPAddr).AddrPort()
	pc.Close()
	return a
}

// TCP starts a fake TCP server on 127.0.0.1:0 that runs h for each connection and
// closes the connection when h returns.
func TCP(t testing.TB, h func(net.Conn)) netip.AddrPort {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	return ServeTCP(t, l, h)
}

// ServeTCP is TCP on a listener of the test's own (a fixed port a built-in
// module's default names): it runs h for each connection until the test ends.
func ServeTCP(t testing.TB, l net.Listener, h func(net.Conn)) netip.AddrPort {
	var wg sync.WaitGroup
	done := make(chan struct{})
	wg.Add(1)
	go func() {
		defer wg.Done()
		for {
			c, err := l.Accept()
			if err != nil {
				return
			}
			wg.Add(1)
			go func() {
				defer wg.Done()
				defer c.Close()
				stop := context.AfterFunc(ctxFromChan(done), func() { c.Close() })
				defer stop()
				h(c)
			}()
		}
	}()
	t.Cleanup(func() { close(done); l.Close(); wg.Wait() })
	return l.Addr().(*net.TCPAddr).AddrPort()
}

func ctxFromChan(done <-chan struct{}) context.Context {
	ctx, cancel := context.WithCancel(context.Background())
	go func() { <-done; cancel() }()
	return ctx
}

// Drip starts a TCP server that accepts and writes one byte of msg a second.
func Drip(t testing.TB, msg []byte) netip.AddrPort {
	return TCP(t, func(c net.Conn) {
		for _, b := range msg {
			if _, err := c.Write([]byte{b}); err != nil {
				return
			}
			time.Sleep(time.Second)
		}
	})
}

// Context returns a context with the given timeout, cancelled when the test ends.
func Context(t testing.TB, d time.Duration) context.Context {
	ctx, cancel := context.WithTimeout(context.Background(), d)
	t.Cleanup(cancel)
	return ctx
}

// SharedDir returns ../shared beside the repository root, or "" when it is absent.
// GSE_SHARED_DIR overrides the location.
func SharedDir() string {
	if d := os.Getenv("GSE_SHARED_DIR"); d != "" {
		return d
	}
	dir, err := os.Getwd()
	if err != nil {
		return ""
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			s := filepath.Join(dir, "..", "shared")
			if st, err := os.Stat(s); err == nil && st.IsDir() {
				return s
			}
			return ""
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return ""
		}
		dir = parent
	}
}

// FixtureDir returns ../shared/fixtures/<proto>, skipping the test with a message
// when it is absent. The captures there carry other projects' licences: they are
// read in place and never copied into this repository.
func FixtureDir(t testing.TB, proto string) string {
	t.Helper()
	s := SharedDir()
	if s == "" {
		t.Skip("../shared is absent: skipping the tests on real captures (own test vectors in testdata/ still run)")
	}
	d := filepath.Join(s, "fixtures", proto)
	if _, err := os.Stat(d); err != nil {
		t.Skipf("no fixtures at %s: skipping", d)
	}
	return d
}

// Fixture reads one capture file from ../shared/fixtures/<proto>/<name>.
func Fixture(t testing.TB, proto, name string) []byte {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(FixtureDir(t, proto), name))
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// NeedQstat skips the test when quakestat is not installed.
func NeedQstat(t testing.TB) {
	t.Helper()
	if _, err := exec.LookPath("quakestat"); err != nil {
		t.Skip("quakestat (Debian package qstat) is not installed: skipping the qstat cross-check; `make test` installs it as root")
	}
}

// Qstat runs the reference client quakestat with args (loopback targets only) and
// returns its standard output. It skips the test when quakestat is not installed.
func Qstat(t testing.TB, args ...string) []byte {
	t.Helper()
	NeedQstat(t)
	path, _ := exec.LookPath("quakestat")
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	out, err := exec.CommandContext(ctx, path, args...).Output()
	if err != nil {
		t.Fatalf("quakestat %v: %v", args, err)
	}
	return out
}

// QstatServer is what quakestat -json reports for one server.
type QstatServer struct {
	Status     string `json:"status"`
	Name       string `json:"name"`
	Map        string `json:"map"`
	NumPlayers int    `json:"numplayers"`
	MaxPlayers int    `json:"maxplayers"`
	Ping       int    `json:"ping"`
	Game       string `json:"gametype"`
	// Players is filled with -P.
	Players []struct {
		Name string `json:"name"`
	} `json:"players"`
}

// QstatJSON queries addr with quakestat's protocol flag (for example "-a2s", "-q3s")
// and returns its JSON record for the server. Skips when quakestat is missing.
func QstatJSON(t testing.TB, flag string, addr netip.AddrPort, extra ...string) QstatServer {
	t.Helper()
	args := append([]string{"-json", "-timeout", "5"}, extra...)
	args = append(args, flag, addr.String())
	out := Qstat(t, args...)
	var recs []QstatServer
	if err := json.Unmarshal(out, &recs); err != nil || len(recs) != 1 {
		t.Fatalf("quakestat output %q: %v", out, err)
	}
	return recs[0]
}

// DrainLine reads what a client sent (a line, for a second at most), for a fake
// that answers and closes: closing with the client's request unread resets the
// connection, and the client could see the reset instead of the reply.
func DrainLine(c net.Conn) {
	c.SetReadDeadline(time.Now().Add(time.Second))
	bufio.NewReader(c).ReadString('\n')
}
