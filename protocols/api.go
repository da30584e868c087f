package protocols

import (
	"crypto/x509"
	"net/netip"
)

// API is the fixed HTTPS service a protocol asks instead of the target (a
// platform's server list, a guild's widget): where its requests go and whom
// they trust.
type API struct {
	Base    string         // scheme and host (and a path prefix), no trailing slash
	RootCAs *x509.CertPool // RootCAs(ca_file): never nil outside tests
	// At, when set (the contract tests), replaces Base by an address of the
	// probe's own, so that the contract's fake servers are the API.
	At func(netip.AddrPort) string
}

// URL is where a request for path (starting with /) goes for the probe of addr.
func (a *API) URL(addr netip.AddrPort, path string) string {
	if a.At != nil {
		return a.At(addr) + path
	}
	return a.Base + path
}

// Digits reports whether s is an id an API takes in its paths or queries as it
// is: 1 to max ASCII digits, nothing that could add a segment or a parameter.
func Digits(s string, max int) bool {
	if len(s) == 0 || len(s) > max {
		return false
	}
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return true
}
