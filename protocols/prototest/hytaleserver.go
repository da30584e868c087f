package prototest

import (
	"bufio"
	"fmt"
	"net"
	"net/netip"
	"testing"
	"time"
)

// HytaleServer is a Hytale serverlistping plugin for tests outside
// protocols/hytale: it answers every QUERY line with players of max.
func HytaleServer(t testing.TB, players, max int) netip.AddrPort {
	t.Helper()
	return TCP(t, func(c net.Conn) {
		c.SetDeadline(time.Now().Add(5 * time.Second))
		if _, err := bufio.NewReader(c).ReadString('\n'); err == nil {
			fmt.Fprintf(c, "OK %d %d\n", players, max)
		}
	})
}
