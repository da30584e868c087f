package prototest

import (
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"net/netip"
	"os"
	"path/filepath"
	"testing"

	"github.com/gameserver-exporter/gameserver_exporter/protocols/wire"
)

// File reads testdata/<name> as it is (a JSON reply, a raw capture), failing the
// test when it is missing.
func File(t testing.TB, name string) []byte {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("testdata", name))
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// HTTP starts a fake HTTP server on loopback that runs h, over TLS with httptest's
// self-signed certificate when tls is set, closed when the test ends. It returns
// the server (for its URL and certificate) and its address.
func HTTP(t testing.TB, h http.Handler, tls bool) (*httptest.Server, netip.AddrPort) {
	t.Helper()
	srv := httptest.NewUnstartedServer(h)
	if tls {
		srv.StartTLS()
	} else {
		srv.Start()
	}
	t.Cleanup(srv.Close)
	return srv, netip.MustParseAddrPort(srv.Listener.Addr().String())
}

// JSONResponse is a response as wire.DoHTTP returns it, with a JSON content type,
// for decoders tested without a server.
func JSONResponse(status int, body []byte) *wire.HTTPResponse {
	return &wire.HTTPResponse{Status: status, Header: http.Header{"Content-Type": {"application/json"}}, Body: body}
}

// StalledClient connects to addr with a 4 KiB receive buffer, sends requests (in
// the background: the send blocks once the server stops reading) and never reads
// an answer: the client that holds a server's writes. The connection closes when
// the test ends, or before when the test closes it.
func StalledClient(t testing.TB, addr, requests string) net.Conn {
	t.Helper()
	c, err := net.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	c.(*net.TCPConn).SetReadBuffer(4096)
	go io.WriteString(c, requests)
	return c
}
