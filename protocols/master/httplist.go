package master

import (
	"context"
	"crypto/x509"
	"errors"
	"fmt"
	"io"
	"mime"
	"net/url"
	"strings"

	"github.com/gameserver-exporter/gameserver_exporter/protocols"
	"github.com/gameserver-exporter/gameserver_exporter/protocols/wire"
)

// httpList is the URL part of an HTTP list's source.
type httpList struct {
	url     string
	maxBody int
	rootCAs *x509.CertPool
	max     int
	// text says the list is no JSON: any content type is taken (Geneshift's
	// PHP list says text/html).
	text bool
	// user and token sign the request in (preset factorio), as URL parameters
	// the list's API wants: they are added to the fixed URL only when it is
	// sent.
	user  string
	token protocols.Secret
	// header holds request headers of the source's (headers, header_files):
	// a key goes there rather than into the URL.
	header map[string]protocols.Secret
}

// String and GoString keep a key in the URL's query, or in a header, out of
// %v and %#v (the listers embedding httpList inherit them).
func (h httpList) String() string   { return "list " + RedactURL(h.url) }
func (h httpList) GoString() string { return h.String() }

// request is the list's request: a URL with a query (a key, often) has it
// masked in the trace and kept out of errors (wire.HTTPRequest.SecretQuery).
func (h httpList) request(url string, hdr map[string][]string) wire.HTTPRequest {
	for k, v := range h.header {
		hdr[k] = []string{v.Reveal()}
	}
	return wire.HTTPRequest{URL: url, MaxBody: h.maxBody, RootCAs: h.rootCAs, Header: hdr,
		SecretQuery: strings.Contains(url, "?")}
}

func newHTTPList(s Source, def string) (httpList, error) {
	if s.Address != "" {
		return httpList{}, fmt.Errorf("type %s takes a url, not an address", s.Type)
	}
	u := s.URL
	if u == "" {
		u = def
	}
	if u == "" {
		return httpList{}, fmt.Errorf("type %s needs a url", s.Type)
	}
	pu, err := url.Parse(u)
	if err != nil || pu.Scheme != "http" && pu.Scheme != "https" || pu.Host == "" {
		return httpList{}, fmt.Errorf("url %q: want an absolute http or https URL", RedactURL(u))
	}
	if pu.User != nil {
		return httpList{}, fmt.Errorf("url %q: credentials do not belong in the URL (headers or header_files carry a key)", RedactURL(u))
	}
	pool := s.RootCAs
	if pool == nil {
		// A public list is verified against the system's roots (wire.DoHTTP
		// accepts any certificate when given none: a game server's own are
		// self-signed, a list's are not).
		if pool, err = x509.SystemCertPool(); err != nil {
			pool = x509.NewCertPool()
		}
	}
	return httpList{url: u, maxBody: s.MaxBody, rootCAs: pool, max: s.MaxEntries, header: s.header}, nil
}

// fetch opens the list and hands its body to decode.
func (h httpList) fetch(ctx context.Context, tr *wire.Trace, decode func(io.Reader, *collector) error) (*List, error) {
	return h.fetchWith(ctx, tr, nil, decode)
}

// fetchWith is fetch with more request headers (a key: headers are never traced).
func (h httpList) fetchWith(ctx context.Context, tr *wire.Trace, header map[string][]string, decode func(io.Reader, *collector) error) (l *List, err error) {
	p := tr.Begin("list")
	defer func() { tr.End(p, err) }()
	hdr := map[string][]string{"Accept": {"application/json"}}
	for k, v := range header {
		hdr[k] = v
	}
	s, err := h.open(ctx, h.request(h.url, hdr), tr)
	if err != nil {
		return nil, err
	}
	defer s.Close()
	if s.Status < 200 || s.Status > 299 {
		return nil, wire.StatusError(&wire.HTTPResponse{Status: s.Status})
	}
	if mt, _, _ := mime.ParseMediaType(s.Header.Get("Content-Type")); !h.text && (mt == "text/html" || mt == "application/xhtml+xml") {
		return nil, fmt.Errorf("%w: expected JSON, got %s", wire.ErrMalformed, mt)
	}
	c := newCollector(h.max)
	if err := decode(s.Body, c); err != nil {
		return nil, err
	}
	return c.done(tr), nil
}

// open sends req, signed in when the list has a token: the token goes to the
// list's fixed URL only (wire.OpenHTTP follows no redirect), and the query
// that carries it is masked in the trace and kept out of errors.
func (h httpList) open(ctx context.Context, req wire.HTTPRequest, tr *wire.Trace) (*wire.HTTPStream, error) {
	if h.token != "" {
		req.AddSecretQuery(url.Values{"username": {h.user}, "token": {h.token.Reveal()}})
	}
	return wire.OpenHTTP(ctx, req, tr)
}

// jsonErr names a decoding error's reason: the wire's when reading failed
// (too large, deadline), truncated when the body ended early, else malformed.
func jsonErr(off int64, err error) error {
	for _, sentinel := range []error{wire.ErrTooLarge, wire.ErrTimeout, wire.ErrTruncated, wire.ErrMalformed, wire.ErrNetwork, wire.ErrServer} {
		if errors.Is(err, sentinel) {
			return err
		}
	}
	if errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF) {
		return fmt.Errorf("%w: JSON ends at offset %d", wire.ErrTruncated, off)
	}
	return fmt.Errorf("%w: JSON at offset %d: %v", wire.ErrMalformed, off, err)
}

// country returns an ISO 3166 alpha-2 code in upper case, or "".
func country(s string) string {
	if len(s) != 2 || !isLetter(s[0]) || !isLetter(s[1]) {
		return ""
	}
	return strings.ToUpper(s)
}

func isLetter(c byte) bool { return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' }
