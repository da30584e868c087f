package protocols

import (
	"context"
	"errors"
	"math/rand/v2"
	"net/http"
	"net/netip"

	"github.com/gameserver-exporter/gameserver_exporter/protocols/wire"
)

// The one-request shape. Many protocols' whole query is one request and the one
// reply that answers it, timed as the "info" phase: such a protocol declares its
// request, a filter for the datagrams that do not answer it and a decoder, and
// UDPExchange (EchoExchange, HTTPExchange) does the rest, the same way for each.
// Each is built once per module, so a probe allocates nothing for it.

// UDPExchange is one UDP request and its answer: the socket (DialUDP, with the
// module's retries), the "info" phase, and wire.Exchange's sorting of datagrams
// (skipped ones noted in the trace, a timeout after them said as why the last one
// was skipped). A protocol builds it in New and returns it as its Querier.
type UDPExchange[R any] struct {
	Retries int // Settings.Retries
	Request []byte
	// Answers, when set, says why a datagram is no answer to Request (a stray,
	// another packet type): it is skipped.
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

// Ask runs the exchange with t and returns the decoded answer (Result unused),
// for a querier that does more with it. Such a querier may build its
// UDPExchange per probe (a challenge its Check compares): Check's closure is
// then allocated per probe, as the trace keeps Request.
func (x *UDPExchange[R]) Ask(ctx context.Context, t Target, tr *wire.Trace) (R, error) {
	return ask(ctx, t, tr, x.Retries, x.Request, x.sort)
}

// On runs the exchange on an open socket and returns the decoded answer, for a
// querier that goes on with more requests on it once the info phase is done.
func (x *UDPExchange[R]) On(ctx context.Context, conn *wire.UDPConn, tr *wire.Trace) (R, error) {
	return on(ctx, conn, tr, x.Request, x.sort)
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

// EchoExchange is UDPExchange for a protocol that ties the answer to its probe
// with a fresh random number n in each request (a cookie, echo bytes) that the
// answer carries back. Built once in New like UDPExchange: n is drawn per probe
// and handed to the functions, so no closure is made per probe.
type EchoExchange[R any] struct {
	Retries int
	Request func(n uint64) []byte
	// Answers says why a datagram is no answer to the request with n (another
	// probe's echo, a stray): it is skipped.
	Answers func(b []byte, n uint64) error
	Decode  func(b []byte, n uint64) (R, error)
	Result  func(R, *wire.Trace) *Result
}

// Query runs the exchange with t and returns Result of its answer.
func (x *EchoExchange[R]) Query(ctx context.Context, t Target, tr *wire.Trace) (*Result, error) {
	n := rand.Uint64()
	r, err := ask(ctx, t, tr, x.Retries, x.Request(n), func(b []byte) (R, error, error) {
		var zero R
		if skip := x.Answers(b, n); skip != nil {
			return zero, skip, nil
		}
		r, err := x.Decode(b, n)
		return r, nil, err
	})
	if err != nil {
		return nil, err
	}
	return x.Result(r, tr), nil
}

// ask dials t and runs one exchange on the socket.
func ask[R any](ctx context.Context, t Target, tr *wire.Trace, retries int, req []byte, sort func([]byte) (R, error, error)) (R, error) {
	conn, err := DialUDP(ctx, t, tr, retries)
	if err != nil {
		var zero R
		return zero, err
	}
	defer conn.Close()
	return on(ctx, conn, tr, req, sort)
}

// on is the info phase around wire.Exchange.
func on[R any](ctx context.Context, conn *wire.UDPConn, tr *wire.Trace, req []byte, sort func([]byte) (R, error, error)) (R, error) {
	p := tr.Begin("info")
	r, err := wire.Exchange(ctx, conn, req, sort)
	tr.End(p, err)
	return r, err
}

// OverUDP makes a Querier of a query that runs on one UDP socket to the target
// (several requests, or a reply of several datagrams): Query opens the socket
// with the module's retries (DialUDP), runs query on it and closes it.
func OverUDP(retries int, query func(ctx context.Context, conn *wire.UDPConn, tr *wire.Trace) (*Result, error)) Querier {
	return &udpQuerier{retries: retries, query: query}
}

type udpQuerier struct {
	retries int
	query   func(ctx context.Context, conn *wire.UDPConn, tr *wire.Trace) (*Result, error)
}

func (q *udpQuerier) Query(ctx context.Context, t Target, tr *wire.Trace) (*Result, error) {
	return OnUDP(ctx, t, tr, q.retries, q.query)
}

// OnUDP is OverUDP's Query, for a querier that keeps a type of its own: it opens
// the socket to t with the module's retries, runs query on it and closes it.
func OnUDP(ctx context.Context, t Target, tr *wire.Trace, retries int, query func(ctx context.Context, conn *wire.UDPConn, tr *wire.Trace) (*Result, error)) (*Result, error) {
	conn, err := DialUDP(ctx, t, tr, retries)
	if err != nil {
		return nil, err
	}
	defer conn.Close()
	return query(ctx, conn, tr)
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

// String and GoString keep the request out of any print of the exchange: its
// header or query may carry the module's secret.
func (x *HTTPExchange[R]) String() string   { return "HTTPExchange " + x.Request.Method }
func (x *HTTPExchange[R]) GoString() string { return x.String() }

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

// GetJSON is a GET of path (with its query) that asks for JSON, its reply capped
// at maxBody.
func GetJSON(path string, maxBody int) wire.HTTPRequest {
	return wire.HTTPRequest{Path: path, Header: http.Header{"Accept": {"application/json"}}, MaxBody: maxBody}
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

// InfoPhase runs query, the whole of a query that is one phase (one connection,
// one conversation, a lookup), as the "info" phase.
func InfoPhase(ctx context.Context, t Target, tr *wire.Trace, query func(context.Context, Target, *wire.Trace) (*Result, error)) (*Result, error) {
	p := tr.Begin("info")
	res, err := query(ctx, t, tr)
	tr.End(p, err)
	return res, err
}

// JSONPage is the New of a protocol whose whole query is one GET of a JSON
// status page at path (the reply capped at maxBody): decode reads the page and
// result makes the Result of it, given the module's players setting.
func JSONPage[R any](path string, maxBody int, decode func([]byte) (R, error), result func(R, bool) *Result) func(Settings) (Querier, error) {
	return func(s Settings) (Querier, error) {
		return &HTTPExchange[R]{Request: GetJSON(path, maxBody), Decode: JSON(decode),
			Result: func(r R, _ *wire.Trace) *Result { return result(r, s.Players) }}, nil
	}
}

// DialTCP begins the query's first phase and connects to addr within it, so the
// phase's time includes the connection's; a failed connection ends the phase.
func DialTCP(ctx context.Context, addr netip.AddrPort, tr *wire.Trace, phase string) (*wire.TCPConn, wire.PhaseStart, error) {
	p := tr.Begin(phase)
	conn, err := wire.DialTCP(ctx, addr, tr)
	if err != nil {
		tr.End(p, err)
	}
	return conn, p, err
}
