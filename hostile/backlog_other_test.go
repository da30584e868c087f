//go:build !linux

package hostile

import (
	"net/netip"
	"testing"
)

func fullBacklog(t testing.TB) (netip.AddrPort, server) {
	t.Skip("the full-backlog listener needs Linux's listen(2) semantics")
	return netip.AddrPort{}, nopServer{}
}
