package testenv

import (
	"math/rand/v2"
	"net"
	"strconv"
	"sync"
	"testing"
)

// serverPorts are the ports ServerPort gave out.
var serverPorts = struct {
	sync.Mutex
	taken map[int]bool
}{taken: map[int]bool{}}

// ServerPort returns a loopback port free for TCP and UDP, the n-1 after it free
// for UDP too (a game server's query port may be the next), for a server to bind:
// below the ephemeral range (no client socket can take it before the server
// binds), clear of game servers' default ports and never twice in a run.
func ServerPort(t testing.TB, n int) int {
	t.Helper()
	const lo, hi = 15000, 25000
	serverPorts.Lock()
	defer serverPorts.Unlock()
	for range 200 {
		p := lo + rand.IntN(hi-lo-n)
		if portsFree(p, n) {
			for i := range n {
				serverPorts.taken[p+i] = true
			}
			return p
		}
	}
	t.Fatalf("no free run of %d loopback ports in [%d, %d)", n, lo, hi)
	return 0
}

func portsFree(p, n int) bool {
	for i := range n {
		if serverPorts.taken[p+i] {
			return false
		}
	}
	l, err := net.Listen("tcp", net.JoinHostPort("127.0.0.1", strconv.Itoa(p)))
	if err != nil {
		return false
	}
	defer l.Close()
	for i := range n {
		u, err := net.ListenPacket("udp", net.JoinHostPort("127.0.0.1", strconv.Itoa(p+i)))
		if err != nil {
			return false
		}
		defer u.Close()
	}
	return true
}
