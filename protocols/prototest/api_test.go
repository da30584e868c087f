package prototest

import (
	"crypto/tls"
	"net/http"
	"net/http/httptest"
	"net/netip"
	"testing"
)

// A client trusting TrustOf(srv) gets through to the TLS fake and only to it;
// a plain fake has no pool.
func TestTrustOf(t *testing.T) {
	ok := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {})
	plain, _ := HTTP(t, ok, false)
	if p := TrustOf(plain); p != nil {
		t.Errorf("plain HTTP: pool %v", p)
	}
	srv, _ := HTTP(t, ok, true)
	// httptest's servers share one certificate: the other fake has its own.
	other := httptest.NewUnstartedServer(ok)
	certPEM, keyPEM := SelfSigned(t)
	cert, err := tls.X509KeyPair(certPEM, keyPEM)
	if err != nil {
		t.Fatal(err)
	}
	other.TLS = &tls.Config{Certificates: []tls.Certificate{cert}}
	other.StartTLS()
	t.Cleanup(other.Close)
	c := &http.Client{Transport: &http.Transport{TLSClientConfig: &tls.Config{RootCAs: TrustOf(srv)}}}
	defer c.CloseIdleConnections()
	resp, err := c.Get(srv.URL)
	if err != nil {
		t.Fatalf("trusted fake: %v", err)
	}
	resp.Body.Close()
	if resp, err := c.Get(other.URL); err == nil {
		resp.Body.Close()
		t.Errorf("another fake's certificate was trusted")
	}
}

func TestAtProbe(t *testing.T) {
	for addr, want := range map[string]string{
		"127.0.0.1:27015": "http://127.0.0.1:27015",
		"[::1]:443":       "http://[::1]:443",
	} {
		if got := AtProbe(netip.MustParseAddrPort(addr)); got != want {
			t.Errorf("AtProbe(%s) = %q, want %q", addr, got, want)
		}
	}
}
