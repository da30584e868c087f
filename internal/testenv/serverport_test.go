package testenv

import (
	"net"
	"strconv"
	"testing"
)

func TestServerPort(t *testing.T) {
	p := ServerPort(t, 2)
	if p < 15000 || p+1 >= 25000 || !serverPorts.taken[p] || !serverPorts.taken[p+1] {
		t.Fatalf("ServerPort(2) = %d", p)
	}
	if portsFree(p, 1) {
		t.Error("a port given out is free again")
	}
	// A port in use for TCP, or the next one for UDP, is not free.
	l, err := net.Listen("tcp", "127.0.0.1:0")
	must(t, err)
	defer l.Close()
	tcp := l.Addr().(*net.TCPAddr).Port
	u, err := net.ListenPacket("udp", net.JoinHostPort("127.0.0.1", strconv.Itoa(tcp+1)))
	must(t, err)
	defer u.Close()
	for _, p := range []int{tcp, tcp + 1} {
		if portsFree(p, 1) {
			t.Errorf("port %d in use (%d for TCP, %d for UDP) but free", p, tcp, tcp+1)
		}
	}
	// Every port taken: none left.
	for i := 15000; i < 25000; i++ {
		serverPorts.taken[i] = true
	}
	defer clear(serverPorts.taken)
	wantFail(t, "no free run of 1 loopback ports", func(tb testing.TB) { ServerPort(tb, 1) })
}
