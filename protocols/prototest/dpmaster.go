package prototest

import (
	"net/netip"
	"strings"
	"testing"
)

// DPMaster is a fake Quake 3 master (dpmaster) on loopback listing servers: it
// answers a getservers request with one getserversResponse.
func DPMaster(t testing.TB, servers ...netip.AddrPort) netip.AddrPort {
	return UDP(t, func(req []byte) [][]byte {
		if !IsGetServers(req) {
			return nil
		}
		return [][]byte{GetServersResponse(servers)}
	})
}

// IsGetServers says whether req is a Quake 3 master's getservers request.
func IsGetServers(req []byte) bool {
	return strings.HasPrefix(string(req), "\xff\xff\xff\xffgetservers ")
}

// GetServersResponse is dpmaster's answer listing servers: 6-byte entries (IPv4
// and port, big-endian), each after a backslash, then EOT.
func GetServersResponse(servers []netip.AddrPort) []byte {
	b := []byte("\xff\xff\xff\xffgetserversResponse")
	for _, s := range servers {
		a := s.Addr().As4()
		b = append(b, '\\', a[0], a[1], a[2], a[3], byte(s.Port()>>8), byte(s.Port()))
	}
	return append(b, "\\EOT\x00\x00\x00"...)
}
