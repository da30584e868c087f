package wire

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/netip"
)

// HTTPStream is a response whose body is read as it arrives rather than whole: a
// server list of many megabytes is decoded entry by entry, and its reader stops
// when it has enough. Reads past MaxBody fail with ErrTooLarge, reads past the
// deadline with ErrTimeout. Close it.
type HTTPStream struct {
	Status int
	Header http.Header
	Body   io.Reader

	body io.ReadCloser
	tr   *Trace
	read *int64
}

// OpenHTTP sends req to req.URL (its query masked in the trace and errors
// when req.SecretQuery), a fixed URL (a public server list the operator
// configured, never one a request named), like DoHTTP but returns once the
// response's header has arrived. The trace keeps the request and the status
// line; Close notes how much of the body was read.
func OpenHTTP(ctx context.Context, req HTTPRequest, tr *Trace) (*HTTPStream, error) {
	if req.URL == "" {
		return nil, fmt.Errorf("%w: OpenHTTP needs a URL", ErrMalformed)
	}
	hreq, err := newHTTPRequest(ctx, netip.AddrPort{}, req)
	if err != nil {
		return nil, err
	}
	client := newClient(ctx, netip.AddrPort{}, req, hreq)
	sent(tr, req, hreq)
	resp, err := client.Do(hreq)
	if err != nil {
		return nil, doErr(ctx, req.unquote(err))
	}
	tr.Received([]byte(resp.Proto + " " + resp.Status + "\r\n\r\n"))
	if resp.StatusCode >= 300 && resp.StatusCode < 400 {
		resp.Body.Close()
		if req.SecretQuery { // the Location may echo the query
			return nil, fmt.Errorf("%w: HTTP %d redirect not followed", ErrServer, resp.StatusCode)
		}
		return nil, fmt.Errorf("%w: HTTP %d redirect to %q not followed", ErrServer, resp.StatusCode, resp.Header.Get("Location"))
	}
	max := req.MaxBody
	if max <= 0 {
		max = defaultMaxBody
	}
	s := &HTTPStream{Status: resp.StatusCode, Header: resp.Header, body: resp.Body, tr: tr, read: new(int64)}
	s.Body = &cappedBody{ctx: ctx, r: resp.Body, left: int64(max), max: max, read: s.read}
	return s, nil
}

// Close releases the connection.
func (s *HTTPStream) Close() error {
	s.tr.Logf("%d bytes of the body read", *s.read)
	return s.body.Close()
}

// cappedBody fails with ErrTooLarge past max bytes and maps read errors to the
// package's reasons.
type cappedBody struct {
	ctx  context.Context
	r    io.Reader
	left int64
	max  int
	read *int64
}

func (c *cappedBody) Read(p []byte) (int, error) {
	if c.left <= 0 {
		// One byte more says whether the body really goes on.
		var one [1]byte
		if n, _ := io.ReadFull(c.r, one[:]); n == 0 {
			return 0, io.EOF
		}
		return 0, fmt.Errorf("%w: response body longer than %d bytes", ErrTooLarge, c.max)
	}
	if int64(len(p)) > c.left {
		p = p[:c.left]
	}
	n, err := c.r.Read(p)
	c.left -= int64(n)
	*c.read += int64(n)
	if err != nil && !errors.Is(err, io.EOF) {
		err = doErr(c.ctx, err)
	}
	return n, err
}
