package protocols

import (
	"context"
	"errors"

	"github.com/gameserver-exporter/gameserver_exporter/protocols/wire"
)

// The one-request shape. Many protocols' whole query is one request and the one
// reply that answers it, timed as the "info" phase: such a protocol declares its
// request, a filter for the datagrams that do not answer it and a decoder, and
// UDPExchange (or HTTPExchange) does the rest, the same way for each.

// UDPExchange is one UDP request and its answer: the socket (DialUDP, with the
// module's retries), the "info" phase, and wire.Exchange's sorting of datagrams
// (skipped ones noted in the trace, a timeout after them said as why the last one
// was skipped). A protocol whose request is the same each probe builds it once
// in New and returns it as its Querier; one that puts a fresh echo in each
// request builds one per probe (a value on the stack: nothing is allocated).
type UDPExchange[R any] struct {
	Retries int // Settings.Retries
	Request []byte
	// Answers, when set, says why a datagram is no answer to Request (a stray,
	// another packet type, another probe's echo): it is skipped.
	Answers func([]byte) error
	// Decode decodes the answer. An error ends the query, unless it wraps
	// NotReply (when set): a decoder that only finds out by decoding that a
	// datagram is no answer at all says so that way, and the datagram is skipped.
	Decode   func([]byte) (R, error)
	NotReply error
	// Check, when set, rejects a decoded answer to another request (a challenge
	// that is not ours): it is skipped too.
	Check func(R) error
	// Result turns the answer into the probe's Result; tr is for what it logs.
	Result func(R, *wire.Trace) *Result
}

// Query runs the exchange with t and returns Result of its answer.
func (x *UDPExchange[R]) Query(ctx context.Context, t Target, tr *wire.Trace) (*Result, error) {
	r, err := x.Ask(ctx, t, tr)
	if err != nil {
		return nil, err
	}
	return x.Result(r, tr), nil
}

// Ask runs the exchange with t and returns the decoded answer (Result is unused).
func (x *UDPExchange[R]) Ask(ctx context.Context, t Target, tr *wire.Trace) (R, error) {
	conn, err := DialUDP(ctx, t, tr, x.Retries)
	if err != nil {
		var zero R
		return zero, err
	}
	defer conn.Close()
	return x.On(ctx, conn, tr)
}

// On runs the exchange on an open socket, for a querier that goes on with more
// requests on it once the info phase is done.
func (x *UDPExchange[R]) On(ctx context.Context, conn *wire.UDPConn, tr *wire.Trace) (R, error) {
	p := tr.Begin("info")
	r, err := wire.Exchange(ctx, conn, x.Request, x.sort)
	tr.End(p, err)
	return r, err
}

// sort sorts a datagram three ways for wire.Exchange.
func (x *UDPExchange[R]) sort(b []byte) (r R, skip, err error) {
	var zero R
	if x.Answers != nil {
		if skip := x.Answers(b); skip != nil {
			return zero, skip, nil
		}
	}
	r, err = x.Decode(b)
	switch {
	case err != nil && x.NotReply != nil && errors.Is(err, x.NotReply):
		return zero, err, nil
	case err != nil:
		return zero, nil, err
	}
	if x.Check != nil {
		if skip := x.Check(r); skip != nil {
			return zero, skip, nil
		}
	}
	return r, nil, nil
}

// DialUDP opens the UDP socket to t (wire.DialUDP) that re-sends an unanswered
// request the module's retries times.
func DialUDP(ctx context.Context, t Target, tr *wire.Trace, retries int) (*wire.UDPConn, error) {
	conn, err := wire.DialUDP(ctx, t.Addr, tr)
	if err != nil {
		return nil, err
	}
	conn.Retries = retries
	return conn, nil
}

// HTTPExchange is one HTTP request to the target and its answer, the "info"
// phase: wire.DoHTTP (pinned to the probe's address, no redirects, the body
// capped at Request.MaxBody), then the protocol's decoder.
type HTTPExchange[R any] struct {
	Request wire.HTTPRequest
	// Decode decodes the response, any status (JSON wraps a decoder of 2xx
	// JSON bodies).
	Decode func(*wire.HTTPResponse) (R, error)
	// Result turns the answer into the probe's Result; tr is for what it logs.
	Result func(R, *wire.Trace) *Result
}

// Query runs the exchange with t and returns Result of its answer.
func (x *HTTPExchange[R]) Query(ctx context.Context, t Target, tr *wire.Trace) (*Result, error) {
	p := tr.Begin("info")
	var r R
	resp, err := wire.DoHTTP(ctx, t.Addr, x.Request, tr)
	if err == nil {
		r, err = x.Decode(resp)
	}
	tr.End(p, err)
	if err != nil {
		return nil, err
	}
	return x.Result(r, tr), nil
}

// JSON is an HTTPExchange decoder that takes a 2xx response's JSON body
// (wire.JSONBody: another status is the server's error, an HTML page is
// malformed) to decode.
func JSON[R any](decode func([]byte) (R, error)) func(*wire.HTTPResponse) (R, error) {
	return func(resp *wire.HTTPResponse) (R, error) {
		body, err := wire.JSONBody(resp)
		if err != nil {
			var zero R
			return zero, err
		}
		return decode(body)
	}
}
