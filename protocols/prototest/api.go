package prototest

import (
	"crypto/x509"
	"net/http/httptest"
	"net/netip"
)

// TrustOf is the pool a querier of a fixed HTTPS API (protocols.API) trusts in a
// test against srv: srv's own certificate, or nil for a plain HTTP fake, which
// no pool is asked about.
func TrustOf(srv *httptest.Server) *x509.CertPool {
	if srv.TLS == nil {
		return nil
	}
	pool := x509.NewCertPool()
	pool.AddCert(srv.Certificate())
	return pool
}

// AtProbe is a protocols.API's At for the contract tests: the API is asked over
// plain HTTP at the probed address, so the contract's fakes (a closed port, a
// silent one) stand for it.
func AtProbe(addr netip.AddrPort) string { return "http://" + addr.String() }
