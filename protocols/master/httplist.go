package master

import (
	"context"
	"crypto/x509"
	"encoding/json"
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
	// sent, and kept out of the trace and of errors.
	user  string
	token protocols.Secret
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
		return httpList{}, fmt.Errorf("url %q: want an absolute http or https URL", u)
	}
	if pu.User != nil {
		return httpList{}, fmt.Errorf("url %q: credentials do not belong in the URL", pu.Redacted())
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
	return httpList{url: u, maxBody: s.MaxBody, rootCAs: pool, max: s.MaxEntries}, nil
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
	s, err := h.open(ctx, wire.HTTPRequest{URL: h.url, MaxBody: h.maxBody, RootCAs: h.rootCAs, Header: hdr}, tr)
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
// list's fixed URL only (wire.OpenHTTP follows no redirect), the trace records
// the request without the parameters, and an error (net/http's quote the URL)
// has them cut out.
func (h httpList) open(ctx context.Context, req wire.HTTPRequest, tr *wire.Trace) (*wire.HTTPStream, error) {
	if h.token == "" {
		return wire.OpenHTTP(ctx, req, tr)
	}
	q := url.Values{"username": {h.user}, "token": {h.token.Reveal()}}.Encode()
	sep := "?"
	if strings.Contains(req.URL, "?") {
		sep = "&"
	}
	req.URL += sep + q
	tr.Logf("GET %s with username and token (not shown)", h.url)
	s, err := wire.OpenHTTP(ctx, req, nil)
	if err != nil {
		return nil, &redacted{err: err, cut: []string{q, h.token.Reveal(), url.QueryEscape(h.token.Reveal())}}
	}
	return s, nil
}

// redacted is an error with secrets cut out of its text; it unwraps to the
// original (its sentinel).
type redacted struct {
	err error
	cut []string
}

func (r *redacted) Error() string {
	s := r.err.Error()
	for _, c := range r.cut {
		if c != "" {
			s = strings.ReplaceAll(s, c, "<secret>")
		}
	}
	return s
}

func (r *redacted) Unwrap() error { return r.err }

// eachElement walks the JSON document in r to the array at path (keys of
// nested objects; none: the document is the array) and calls each with the
// decoder positioned before every element, until each says stop. Only the
// element being decoded is held, never the document.
func eachElement(r io.Reader, path []string, each func(*json.Decoder) (stop bool, err error)) error {
	w := &window{r: &squeezer{r: r}}
	dec := json.NewDecoder(w)
	w.dec = dec
	for _, key := range path {
		if err := delim(dec, '{'); err != nil {
			return err
		}
		for {
			if !dec.More() {
				return fmt.Errorf("%w: no key %q at offset %d", wire.ErrMalformed, key, dec.InputOffset())
			}
			tok, err := dec.Token()
			if err != nil {
				return jsonErr(dec, err)
			}
			if tok == key {
				break
			}
			if err := skip(dec); err != nil {
				return err
			}
		}
	}
	if err := delim(dec, '['); err != nil {
		return err
	}
	for dec.More() {
		stop, err := each(dec)
		if err != nil {
			return jsonErr(dec, err)
		}
		if stop {
			return nil
		}
	}
	if _, err := dec.Token(); err != nil { // the closing ]
		return jsonErr(dec, err)
	}
	return nil
}

func delim(dec *json.Decoder, want json.Delim) error {
	tok, err := dec.Token()
	if err != nil {
		return jsonErr(dec, err)
	}
	if tok != want {
		return fmt.Errorf("%w: %v at offset %d where %v was expected", wire.ErrMalformed, tok, dec.InputOffset(), want)
	}
	return nil
}

// skip reads past one value, token by token.
func skip(dec *json.Decoder) error {
	depth := 0
	for {
		tok, err := dec.Token()
		if err != nil {
			return jsonErr(dec, err)
		}
		switch tok {
		case json.Delim('{'), json.Delim('['):
			depth++
		case json.Delim('}'), json.Delim(']'):
			depth--
		}
		if depth == 0 {
			return nil
		}
	}
}

// jsonErr names a decoding error's reason: the wire's when reading failed
// (too large, deadline), truncated when the body ended early, else malformed.
func jsonErr(dec *json.Decoder, err error) error {
	for _, sentinel := range []error{wire.ErrTooLarge, wire.ErrTimeout, wire.ErrTruncated, wire.ErrMalformed, wire.ErrNetwork, wire.ErrServer} {
		if errors.Is(err, sentinel) {
			return err
		}
	}
	if errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF) {
		return fmt.Errorf("%w: JSON ends at offset %d", wire.ErrTruncated, dec.InputOffset())
	}
	return fmt.Errorf("%w: JSON at offset %d: %v", wire.ErrMalformed, dec.InputOffset(), err)
}

// country returns an ISO 3166 alpha-2 code in upper case, or "".
func country(s string) string {
	if len(s) != 2 || !isLetter(s[0]) || !isLetter(s[1]) {
		return ""
	}
	return strings.ToUpper(s)
}

func isLetter(c byte) bool { return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' }

// squeezer passes a JSON document on with each run of whitespace between tokens
// cut to one byte. encoding/json's Decoder rescans the whitespace before a
// value from its start on every read, so megabytes of it (a lying or broken
// list) would cost time quadratic in their length; strings pass unchanged.
type squeezer struct {
	r        io.Reader
	inString bool
	escaped  bool
	space    bool // the last byte passed on was whitespace outside a string
}

func (s *squeezer) Read(p []byte) (int, error) {
	for {
		n, err := s.r.Read(p)
		w := 0
		for _, c := range p[:n] {
			switch {
			case s.inString:
				switch {
				case s.escaped:
					s.escaped = false
				case c == '\\':
					s.escaped = true
				case c == '"':
					s.inString = false
				}
			case c == ' ' || c == '\t' || c == '\n' || c == '\r':
				if s.space {
					continue
				}
				s.space = true
				p[w] = c
				w++
				continue
			case c == '"':
				s.inString = true
			}
			s.space = false
			p[w] = c
			w++
		}
		if w > 0 || err != nil {
			return w, err
		}
	}
}

// maxValue bounds one server's entry (and any one token on the way to the
// list): the decoder holds a whole value while it decodes it, so without it a
// list of one endless entry would be held up to the body's cap.
const maxValue = 1 << 20

// window lets the decoder read at most maxValue bytes past the point it has
// consumed (the start of the value it is decoding).
type window struct {
	r    io.Reader
	dec  *json.Decoder
	read int64
}

func (w *window) Read(p []byte) (int, error) {
	left := w.dec.InputOffset() + maxValue - w.read
	if left <= 0 {
		return 0, fmt.Errorf("%w: a list entry longer than %d bytes (at offset %d)", wire.ErrTooLarge, maxValue, w.dec.InputOffset())
	}
	if int64(len(p)) > left {
		p = p[:left]
	}
	n, err := w.r.Read(p)
	w.read += int64(n)
	return n, err
}
