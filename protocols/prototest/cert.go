package prototest

import (
	"net"
	"testing"
)

// SelfSigned returns a fresh self-signed certificate for 127.0.0.1, valid for an
// hour, and its key, both PEM: a TLS server's certificate, or a CA that signed
// nothing else.
func SelfSigned(t testing.TB) (certPEM, keyPEM []byte) {
	t.Helper()
	return SelfSignedFor(t, nil, net.IPv4(127, 0, 0, 1))
}
