package wire

import (
	"bytes"
	"context"
	"crypto/tls"
	"crypto/x509"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"mime"
	"net"
	"net/http"
	"net/netip"
	"net/url"
	"strings"
	"time"
)

// HTTPRequest is one request of a protocol that speaks HTTP (REST status APIs of
// Palworld, Terraria, FiveM, Satisfactory, EOS).
type HTTPRequest struct {
	Method string // default GET
	// Path is the request path with its query ("/v1/api/info?x=1"), sent to the
	// probe's address. URL, when set instead, is an absolute URL of a fixed API
	// (EOS): the request then goes where the URL says, resolved as usual.
	Path string
	URL  string
	// SecretQuery says Path's query string carries a secret (Farming Simulator's
	// code=): the trace records the path with the query masked, and errors never
	// quote the URL.
	SecretQuery bool
	// LiteralPath sends Path's path as written, without escaping what url.URL would
	// (Assetto Corsa's "/JSON|<n>": its server does not decode "%7C").
	LiteralPath bool
	// Host is the Host header and the TLS server name; default the address.
	Host   string
	Header http.Header
	Body   []byte
	// TLS speaks HTTPS. Game servers present self-signed certificates by default,
	// so with RootCAs nil any certificate is accepted (the query reads public
	// status, and the target policy already chose the address); set RootCAs to
	// verify the chain and host name.
	TLS     bool
	RootCAs *x509.CertPool
	// MaxBody caps the response body (default 1 MiB): ErrTooLarge past it.
	MaxBody int
	// TraceBody, when set, is what the trace keeps of the response body (as read,
	// up to MaxBody) instead of the body: a reply carrying player addresses or a
	// session token is redacted before debug output can show it.
	TraceBody func(body []byte) []byte
	// TraceSent, when set, is what the trace keeps of the request's Body instead
	// of it: a sign-in's password or token masked.
	TraceSent func(body []byte) []byte
}

// AddSecretQuery appends v (a code, a token) to the query of URL, when set, or of
// Path, and marks the query secret (SecretQuery).
func (req *HTTPRequest) AddSecretQuery(v url.Values) {
	target := &req.Path
	if req.URL != "" {
		target = &req.URL
	}
	sep := "?"
	if strings.Contains(*target, "?") {
		sep = "&"
	}
	*target += sep + v.Encode()
	req.SecretQuery = true
}

// HTTPResponse is a complete response whose body was read within MaxBody.
type HTTPResponse struct {
	Status int
	Header http.Header
	Body   []byte
}

const defaultMaxBody = 1 << 20

// errNoRedirect stops the client at a redirect: a status API has no reason to send
// one, and following it could lead the probe off the address the target policy
// approved.
var errNoRedirect = errors.New("redirect not followed")

// DoHTTP sends one request to addr (or to req.URL) within ctx's deadline, without
// keep-alive, redirects or proxies, and reads the whole body up to req.MaxBody. A
// status other than 2xx is returned as a response, not an error: the protocol
// decides what 401 or 404 means (see StatusError). The request and the response's
// status line and body are recorded in tr.
func DoHTTP(ctx context.Context, addr netip.AddrPort, req HTTPRequest, tr *Trace) (*HTTPResponse, error) {
	hreq, err := newHTTPRequest(ctx, addr, req)
	if err != nil {
		return nil, err
	}
	client := newClient(ctx, addr, req, hreq)
	sent(tr, req, hreq)
	resp, err := client.Do(hreq)
	if err != nil {
		err = req.unquote(err)
		return nil, doErr(ctx, err)
	}
	defer resp.Body.Close()
	max := req.MaxBody
	if max <= 0 {
		max = defaultMaxBody
	}
	body, err := io.ReadAll(io.LimitReader(resp.Body, int64(max)+1))
	if err != nil {
		return nil, httpErr(err)
	}
	if tr != nil {
		kept := body[:min(len(body), max)]
		if req.TraceBody != nil {
			kept = req.TraceBody(kept)
		}
		tr.Received(append([]byte(resp.Proto+" "+resp.Status+"\r\n\r\n"), kept...))
	}
	if len(body) > max {
		return nil, fmt.Errorf("%w: response body longer than %d bytes", ErrTooLarge, max)
	}
	if resp.StatusCode >= 300 && resp.StatusCode < 400 {
		return nil, fmt.Errorf("%w: HTTP %d redirect to %q not followed", ErrServer, resp.StatusCode, resp.Header.Get("Location"))
	}
	return &HTTPResponse{Status: resp.StatusCode, Header: resp.Header, Body: body}, nil
}

// newClient is the client of one request: no keep-alive, redirects, proxies or
// compression.
func newClient(ctx context.Context, addr netip.AddrPort, req HTTPRequest, hreq *http.Request) *http.Client {
	// The transport dials on a context of its own, which may outlive the request
	// (to pool the connection): dial on the probe's instead, and bound the
	// connection by its deadline, so that no dial or handshake outlives the request.
	dial := func(_ context.Context, network, hostport string) (net.Conn, error) {
		var d net.Dialer
		if req.URL == "" {
			hostport = addr.String() // never where a Host header or DNS would send it
		}
		c, err := d.DialContext(ctx, "tcp", hostport)
		if err == nil {
			if dl, ok := ctx.Deadline(); ok {
				c.SetDeadline(dl)
			}
		}
		return c, err
	}
	tlsConf := &tls.Config{ServerName: hreq.URL.Hostname(), RootCAs: req.RootCAs, InsecureSkipVerify: req.RootCAs == nil}
	if req.Host != "" {
		tlsConf.ServerName = hostOnly(req.Host)
	}
	return &http.Client{
		Transport: &http.Transport{
			DialContext:            dial,
			TLSClientConfig:        tlsConf,
			DisableKeepAlives:      true,
			DisableCompression:     true, // a small body stays small: no gzip bomb
			MaxResponseHeaderBytes: 16 << 10,
			Proxy:                  nil,
		},
		CheckRedirect: func(*http.Request, []*http.Request) error { return errNoRedirect },
	}
}

// doErr maps an error of a request or of reading its body.
func doErr(ctx context.Context, err error) error {
	if dl, ok := ctx.Deadline(); ctx.Err() != nil || ok && !time.Now().Before(dl) {
		// The deadline cut the reply: whatever the client made of the bytes it
		// had (a status line "H" is "malformed HTTP"), the server was too slow.
		// The clock, not only ctx.Err: the socket's deadline (the same instant)
		// can fire before the context's own timer has cancelled it.
		return fmt.Errorf("%w: no complete reply before the deadline", ErrTimeout)
	}
	return httpErr(err)
}

// sent records the request in tr, its query masked when it is secret.
func sent(tr *Trace, req HTTPRequest, hreq *http.Request) {
	uri := hreq.URL.RequestURI()
	if req.SecretQuery && hreq.URL.RawQuery != "" {
		uri = hreq.URL.EscapedPath() + "?<secret>"
	}
	body := req.Body
	if req.TraceSent != nil {
		body = req.TraceSent(body)
	}
	tr.Sent([]byte(hreq.Method + " " + uri + " HTTP/1.1\r\nHost: " + hreq.Host + "\r\n\r\n" + string(body)))
	if tr != nil {
		tr.Attempts++
	}
}

// unquote drops net/http's quote of the URL from a secret query's error.
func (req HTTPRequest) unquote(err error) error {
	var uerr *url.Error
	if req.SecretQuery && errors.As(err, &uerr) {
		return uerr.Err
	}
	return err
}

func newHTTPRequest(ctx context.Context, addr netip.AddrPort, req HTTPRequest) (*http.Request, error) {
	method := req.Method
	if method == "" {
		method = http.MethodGet
	}
	u := req.URL
	if u == "" {
		scheme := "http"
		if req.TLS {
			scheme = "https"
		}
		host := req.Host
		if host == "" {
			host = addr.String()
		}
		u = scheme + "://" + host + req.Path
	}
	var body io.Reader
	if req.Body != nil {
		body = bytes.NewReader(req.Body)
	}
	hreq, err := http.NewRequestWithContext(ctx, method, u, body)
	if err != nil {
		if req.SecretQuery {
			return nil, fmt.Errorf("%w: request: %v", ErrMalformed, req.unquote(err))
		}
		return nil, fmt.Errorf("%w: request %s: %v", ErrMalformed, u, err)
	}
	if req.LiteralPath && req.URL == "" {
		p, _, _ := strings.Cut(req.Path, "?")
		hreq.URL.Opaque = p
	}
	for k, v := range req.Header {
		hreq.Header[k] = v
	}
	if hreq.Header.Get("User-Agent") == "" {
		hreq.Header.Set("User-Agent", "gameserver_exporter")
	}
	return hreq, nil
}

func hostOnly(hostport string) string {
	if h, _, err := net.SplitHostPort(hostport); err == nil {
		return h
	}
	return hostport
}

// httpErr maps a client error to a sentinel reason, naming TLS failures as such.
func httpErr(err error) error {
	var (
		certErr  *tls.CertificateVerificationError
		recErr   tls.RecordHeaderError
		unknown  x509.UnknownAuthorityError
		hostErr  x509.HostnameError
		alertErr tls.AlertError
	)
	switch {
	case errors.Is(err, errNoRedirect):
		return fmt.Errorf("%w: %v", ErrServer, err)
	case errors.As(err, &certErr), errors.As(err, &unknown), errors.As(err, &hostErr):
		return fmt.Errorf("%w: TLS certificate rejected: %v", ErrMismatch, err)
	case errors.As(err, &recErr), strings.Contains(err.Error(), "HTTP response to HTTPS client"):
		return fmt.Errorf("%w: the server does not speak TLS", ErrMalformed)
	case errors.As(err, &alertErr):
		return fmt.Errorf("%w: TLS handshake: %v", ErrNetwork, err)
	case errors.Is(err, io.EOF), errors.Is(err, io.ErrUnexpectedEOF):
		return fmt.Errorf("%w: the server closed the connection before a complete response", ErrTruncated)
	case strings.Contains(err.Error(), "readLoopPeekFailLocked"):
		// The peer spoke before our request (an SSH or SMTP banner): no HTTP server.
		return fmt.Errorf("%w: the server spoke before the request: not an HTTP server", ErrMalformed)
	case strings.Contains(err.Error(), "malformed HTTP"):
		return fmt.Errorf("%w: not an HTTP server: %v", ErrMalformed, err)
	}
	return netErr(err)
}

// StatusError describes a non-2xx response as an error of its kind: 401/403 are
// the server refusing our credentials, said so; anything else is the server's error.
func StatusError(resp *HTTPResponse) error {
	switch resp.Status {
	case http.StatusUnauthorized, http.StatusForbidden:
		return fmt.Errorf("%w: HTTP %d: authentication failed (check the module's credentials)", ErrServer, resp.Status)
	}
	return fmt.Errorf("%w: HTTP %d %s", ErrServer, resp.Status, http.StatusText(resp.Status))
}

// JSONBody returns a 2xx response's body for a JSON decoder of the caller's. A
// non-2xx status is StatusError; a body that is not JSON (an HTML error page from
// a proxy, another service on the port) is ErrMalformed naming its content type,
// never quoting it.
func JSONBody(resp *HTTPResponse) ([]byte, error) {
	if resp.Status < 200 || resp.Status > 299 {
		return nil, StatusError(resp)
	}
	if ct := resp.Header.Get("Content-Type"); ct != "" {
		mt, _, _ := mime.ParseMediaType(ct)
		if mt == "text/html" || mt == "application/xhtml+xml" {
			return nil, fmt.Errorf("%w: expected JSON, got %s", ErrMalformed, mt)
		}
	}
	return resp.Body, nil
}

// DecodeJSON decodes a 2xx response's body into v, after the checks of JSONBody.
func DecodeJSON(resp *HTTPResponse, v any) error {
	body, err := JSONBody(resp)
	if err != nil {
		return err
	}
	if err := json.Unmarshal(body, v); err != nil {
		return fmt.Errorf("%w: JSON: %v", ErrMalformed, err)
	}
	return nil
}
