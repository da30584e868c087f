package protocols_test

import (
	"context"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/netip"
	"strings"
	"testing"
	"time"

	"github.com/gameserver-exporter/gameserver_exporter/protocols"
	"github.com/gameserver-exporter/gameserver_exporter/protocols/prototest"
	"github.com/gameserver-exporter/gameserver_exporter/protocols/wire"
)

var errTestNotReply = fmt.Errorf("%w: not a test reply", wire.ErrMalformed)

// testExchange decodes "ok <token>" and "bad"; a datagram starting "#" fails
// Answers, anything else Decode's NotReply; Check takes only the token "mine".
func testExchange(req string) *protocols.UDPExchange[string] {
	return &protocols.UDPExchange[string]{
		Request: []byte(req),
		Answers: func(b []byte) error {
			if strings.HasPrefix(string(b), "#") {
				return fmt.Errorf("%w: a comment", wire.ErrMalformed)
			}
			return nil
		},
		Decode: func(b []byte) (string, error) {
			switch {
			case string(b) == "bad":
				return "", fmt.Errorf("%w: bad", wire.ErrTruncated)
			case len(b) > 3 && string(b[:3]) == "ok ":
				return string(b[3:]), nil
			}
			return "", fmt.Errorf("%w: %q", errTestNotReply, b)
		},
		NotReply: errTestNotReply,
		Check: func(token string) error {
			if token != "mine" {
				return fmt.Errorf("%w: token %q", wire.ErrMismatch, token)
			}
			return nil
		},
		Result: func(token string, tr *wire.Trace) *protocols.Result {
			tr.Log("result of " + token)
			return &protocols.Result{Name: token}
		},
	}
}

// replies is a fake server answering each datagram with the given datagrams.
func replies(t *testing.T, want string, answer ...string) protocols.Target {
	return protocols.At(prototest.UDP(t, func(req []byte) [][]byte {
		if string(req) != want {
			t.Errorf("request %q, want %q", req, want)
		}
		var out [][]byte
		for _, a := range answer {
			out = append(out, []byte(a))
		}
		return out
	}))
}

// infoPhase wants the trace to hold one phase, info, that ended with err.
func infoPhase(t *testing.T, tr *wire.Trace, err error) {
	t.Helper()
	if len(tr.Phases) != 1 || tr.Phases[0].Name != "info" || !errors.Is(tr.Phases[0].Err, err) {
		t.Errorf("phases %+v, want info ending in %v", tr.Phases, err)
	}
}

func TestUDPExchange(t *testing.T) {
	for _, tc := range []struct {
		name    string
		answer  []string
		want    string
		err     error
		skipped int
	}{
		{name: "strays skipped: Answers, NotReply, Check", answer: []string{"# hi", "junk", "ok other", "ok mine", "ok mine"}, want: "mine", skipped: 3},
		{name: "broken answer ends the exchange", answer: []string{"junk", "bad", "ok mine"}, err: wire.ErrTruncated, skipped: 1},
		{name: "only strays: the last reason", answer: []string{"junk", "ok other"}, err: wire.ErrMismatch, skipped: 2},
		{name: "only strays Answers refused", answer: []string{"# a", "# b"}, err: wire.ErrMalformed, skipped: 2},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			tr := wire.NewTrace()
			res, err := testExchange("req").Query(prototest.Context(t, 300*time.Millisecond), replies(t, "req", tc.answer...), tr)
			if (tc.err == nil) != (err == nil) || tc.err != nil && !errors.Is(err, tc.err) {
				t.Fatalf("error %v, want %v", err, tc.err)
			}
			if err == nil && res.Name != tc.want {
				t.Errorf("result %+v, want the name %q", res, tc.want)
			}
			infoPhase(t, tr, tc.err)
			if n := prototest.Ignored(tr); n < tc.skipped {
				t.Errorf("%d datagrams noted as skipped, want %d", n, tc.skipped)
			}
		})
	}
}

func TestUDPExchangeAskAndOn(t *testing.T) {
	target := replies(t, "req", "ok mine")
	ctx := prototest.Context(t, 2*time.Second)
	if got, err := testExchange("req").Ask(ctx, target, nil); err != nil || got != "mine" {
		t.Errorf("Ask: %q %v", got, err)
	}
	conn, err := protocols.DialUDP(ctx, target, nil, 0)
	prototest.NoError(t, err)
	defer conn.Close()
	for i := range 2 { // the socket stays open for the next request
		if got, err := testExchange("req").On(ctx, conn, nil); err != nil || got != "mine" {
			t.Errorf("On, request %d: %q %v", i, got, err)
		}
	}
}

func TestUDPExchangeRetries(t *testing.T) {
	for _, retries := range []int{0, 2} {
		t.Run(fmt.Sprint("retries ", retries), func(t *testing.T) {
			t.Parallel()
			seen := 0
			target := protocols.At(prototest.UDP(t, func([]byte) [][]byte {
				if seen++; seen < 3 {
					return nil // drop the first two requests
				}
				return [][]byte{[]byte("ok mine")}
			}))
			x := testExchange("req")
			x.Retries = retries
			tr := wire.NewTrace()
			_, err := x.Query(prototest.Context(t, 900*time.Millisecond), target, tr)
			switch {
			case retries == 0 && !errors.Is(err, wire.ErrTimeout):
				t.Errorf("no retries: %v, want a timeout", err)
			case retries == 2 && err != nil:
				t.Errorf("two retries: %v", err)
			}
			if want := retries + 1; tr.Attempts != want {
				t.Errorf("%d requests sent, want %d", tr.Attempts, want)
			}
		})
	}
}

func TestOverUDP(t *testing.T) {
	target := replies(t, "req", "ok mine")
	var conns []*wire.UDPConn
	q := protocols.OverUDP(2, func(ctx context.Context, conn *wire.UDPConn, tr *wire.Trace) (*protocols.Result, error) {
		conns = append(conns, conn)
		if conn.Retries != 2 {
			t.Errorf("the socket re-sends %d times, want the module's 2", conn.Retries)
		}
		name, err := testExchange("req").On(ctx, conn, tr)
		return &protocols.Result{Name: name}, err
	})
	res, err := q.Query(prototest.Context(t, 2*time.Second), target, nil)
	if err != nil || res.Name != "mine" {
		t.Fatalf("%+v %v", res, err)
	}
	if err := conns[0].Send([]byte("req")); err == nil {
		t.Error("the socket is still open after the query")
	}
	if _, err := q.Query(prototest.Context(t, time.Second), protocols.At(netip.AddrPort{}), nil); err == nil || len(conns) != 1 {
		t.Errorf("an invalid address: %v, and the query ran %d times", err, len(conns))
	}
}

func TestUDPExchangeRefused(t *testing.T) {
	_, err := testExchange("req").Query(prototest.Context(t, 2*time.Second), protocols.At(prototest.ClosedUDPPort(t)), nil)
	if !errors.Is(err, wire.ErrRefused) && !errors.Is(err, wire.ErrTimeout) {
		t.Errorf("closed port: %v", err)
	}
}

// echoExchange sends "n" and its 8 bytes; an answer echoes them and adds a name.
var echoExchange = &protocols.EchoExchange[string]{
	Request: func(n uint64) []byte { return binary.BigEndian.AppendUint64([]byte("n"), n) },
	Answers: func(b []byte, n uint64) error {
		if len(b) < 8 || binary.BigEndian.Uint64(b) != n {
			return fmt.Errorf("%w: another echo", wire.ErrMismatch)
		}
		return nil
	},
	Decode: func(b []byte, n uint64) (string, error) {
		if binary.BigEndian.Uint64(b) != n { // Decode gets the probe's n too
			return "", errors.New("wrong n")
		}
		return string(b[8:]), nil
	},
	Result: func(name string, _ *wire.Trace) *protocols.Result { return &protocols.Result{Name: name} },
}

func TestEchoExchange(t *testing.T) {
	sent := make(chan uint64, 4)
	target := protocols.At(prototest.UDP(t, func(req []byte) [][]byte {
		n := binary.BigEndian.Uint64(req[1:])
		sent <- n
		stray := binary.BigEndian.AppendUint64(nil, n+1)
		return [][]byte{append(stray, "stray"...), append(req[1:9:9], "srv"...)}
	}))
	ctx := prototest.Context(t, 2*time.Second)
	for range 2 {
		tr := wire.NewTrace()
		res, err := echoExchange.Query(ctx, target, tr)
		if err != nil || res.Name != "srv" {
			t.Fatalf("%+v %v", res, err)
		}
		if prototest.Ignored(tr) != 1 {
			t.Errorf("%d notes, want one stray skipped", prototest.Ignored(tr))
		}
		infoPhase(t, tr, nil)
	}
	if a, b := <-sent, <-sent; a == b {
		t.Errorf("two probes sent the same number %d", a)
	}

	onlyStrays := protocols.At(prototest.UDP(t, func([]byte) [][]byte { return [][]byte{[]byte("12345678stray")} }))
	if _, err := echoExchange.Query(prototest.Context(t, 300*time.Millisecond), onlyStrays, nil); !errors.Is(err, wire.ErrMismatch) {
		t.Errorf("only strays: %v, want ErrMismatch", err)
	}
}

type status struct {
	Name string `json:"name"`
}

func decodeStatus(b []byte) (*status, error) {
	var s status
	if err := json.Unmarshal(b, &s); err != nil {
		return nil, err
	}
	return &s, nil
}

func TestHTTPExchange(t *testing.T) {
	_, addr := prototest.HTTP(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, ok := map[string]string{"/json": `{"name":"srv"}`, "/big": `{"name":"` + strings.Repeat("x", 2<<10) + `"}`, "/html": `<html>`}[r.URL.Path]
		if !ok {
			http.NotFound(w, r)
			return
		}
		if r.Header.Get("Accept") != "application/json" {
			t.Errorf("Accept %q", r.Header.Get("Accept"))
		}
		w.Header().Set("Content-Type", map[bool]string{true: "text/html", false: "application/json"}[r.URL.Path == "/html"])
		w.Write([]byte(body))
	}), false)
	for _, tc := range []struct {
		path string
		err  error
	}{
		{"/json", nil},
		{"/html", wire.ErrMalformed},
		{"/gone", wire.ErrServer},
		{"/big", wire.ErrTooLarge},
	} {
		x := &protocols.HTTPExchange[*status]{
			Request: protocols.GetJSON(tc.path, 1<<10),
			Decode:  protocols.JSON(decodeStatus),
			Result:  func(s *status, _ *wire.Trace) *protocols.Result { return &protocols.Result{Name: s.Name} },
		}
		tr := wire.NewTrace()
		res, err := x.Query(prototest.Context(t, 2*time.Second), protocols.At(addr), tr)
		if (tc.err == nil) != (err == nil) || tc.err != nil && !errors.Is(err, tc.err) {
			t.Errorf("%s: %v, want %v", tc.path, err, tc.err)
		}
		if err == nil && res.Name != "srv" {
			t.Errorf("%s: result %+v", tc.path, res)
		}
		infoPhase(t, tr, tc.err)
	}
}

func TestDecodeOptions(t *testing.T) {
	type opts struct{ N int }
	o := opts{N: 7}
	if err := (protocols.Settings{}).DecodeOptions("x", &o); err != nil || o.N != 7 {
		t.Errorf("no block: %v %+v, want nil and the value untouched", err, o)
	}
	if err := (protocols.Settings{Options: prototest.OptionsOf(opts{N: 3})}).DecodeOptions("x", &o); err != nil || o.N != 3 {
		t.Errorf("a block: %v %+v", err, o)
	}
	bad := errors.New(`unknown field "m"`)
	err := (protocols.Settings{Options: func(any) error { return bad }}).DecodeOptions("x", &o)
	if !errors.Is(err, bad) || !strings.HasPrefix(err.Error(), "x options: ") {
		t.Errorf("a bad block: %v, want it wrapped and named", err)
	}
}
