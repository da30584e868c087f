package protocols

import (
	"context"
	"crypto/x509"
	"fmt"
	"net/http"
	"net/netip"

	"github.com/gameserver-exporter/gameserver_exporter/protocols/wire"
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

// JSON asks the API for the JSON document at path for the probe of addr (req
// holds the rest: a GET unless its method and body say otherwise, its headers,
// the body's cap, what the trace masks) and returns the body of a 2xx answer;
// another status is the error refused makes of it (the service's own codes).
// what names the request in the other errors.
func (a *API) JSON(ctx context.Context, addr netip.AddrPort, tr *wire.Trace, what, path string, req wire.HTTPRequest, refused func(*wire.HTTPResponse) error) ([]byte, error) {
	req.URL = a.URL(addr, path)
	if req.Header == nil {
		req.Header = http.Header{}
	}
	req.Header.Set("Accept", "application/json")
	req.RootCAs = a.RootCAs
	resp, err := wire.DoHTTP(ctx, addr, req, tr)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", what, err)
	}
	if resp.Status < 200 || resp.Status > 299 {
		return nil, refused(resp)
	}
	body, err := wire.JSONBody(resp)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", what, err)
	}
	return body, nil
}
