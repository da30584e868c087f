package protocols_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net"
	"net/http"
	"net/netip"
	"strings"
	"testing"
	"time"

	"github.com/gameserver-exporter/gameserver_exporter/protocols"
	"github.com/gameserver-exporter/gameserver_exporter/protocols/prototest"
	"github.com/gameserver-exporter/gameserver_exporter/protocols/wire"
)

// The helpers the protocols share instead of copying (options, phases,
// sockets, counts): each pinned here, where it is written.

func TestShare(t *testing.T) {
	if ctx, cancel := protocols.Share(context.Background(), 2); ctx != context.Background() {
		t.Error("no deadline: want ctx itself")
	} else {
		cancel()
	}
	parent, stop := context.WithTimeout(context.Background(), time.Hour)
	defer stop()
	if ctx, cancel := protocols.Share(parent, 1); ctx != parent {
		t.Error("the last share: want ctx itself")
	} else {
		cancel()
	}
	ctx, cancel := protocols.Share(parent, 4)
	defer cancel()
	dl, ok := ctx.Deadline()
	whole, _ := parent.Deadline()
	// A quarter of the hour left: well past ten minutes, well before the half.
	if !ok || time.Until(dl) < 10*time.Minute || time.Until(dl) > 30*time.Minute || !dl.Before(whole) {
		t.Errorf("Share(1h, 4): deadline in %v", time.Until(dl))
	}
	cancel()
	if ctx.Err() == nil {
		t.Error("cancel did not end the share")
	}
}

type testOptions struct {
	Port int `yaml:"port"`
}

func TestWithOptions(t *testing.T) {
	var got testOptions
	build := protocols.WithOptions("test", func(s protocols.Settings, o testOptions) (protocols.Querier, error) {
		got = o
		return nil, nil
	})
	if _, err := build(protocols.Settings{}); err != nil || got != (testOptions{}) {
		t.Errorf("no block: %+v, %v", got, err)
	}
	if _, err := build(protocols.Settings{Options: prototest.OptionsYAML("port: 7\n")}); err != nil || got.Port != 7 {
		t.Errorf("port: 7: %+v, %v", got, err)
	}
	if _, err := build(protocols.Settings{Options: prototest.OptionsYAML("nope: 1\n")}); err == nil || !strings.HasPrefix(err.Error(), "test options: ") {
		t.Errorf("unknown key: %v, want an error naming the block", err)
	}
}

func TestFixed(t *testing.T) {
	q := protocols.OverUDP(0, nil)
	if got, err := protocols.Fixed(q)(protocols.Settings{Players: true}); got != q || err != nil {
		t.Errorf("Fixed: %v, %v", got, err)
	}
}

func TestUint16Option(t *testing.T) {
	for _, tc := range []struct {
		v    int
		want uint16
		err  bool
	}{{0, 100, false}, {1, 1, false}, {65535, 65535, false}, {-1, 0, true}, {65536, 0, true}} {
		got, err := protocols.Uint16Option("test", "port", tc.v, 100)
		if got != tc.want || (err != nil) != tc.err {
			t.Errorf("%d: %d, %v", tc.v, got, err)
		}
		if err != nil && err.Error() != fmt.Sprintf("test options: port must be between 1 and 65535, got %d", tc.v) {
			t.Errorf("%d: %v", tc.v, err)
		}
	}
}

func TestOnPort(t *testing.T) {
	tg := protocols.At(netip.MustParseAddrPort("192.0.2.1:9987"))
	if got := tg.OnPort(0); got != tg.Addr {
		t.Errorf("OnPort(0) = %v", got)
	}
	if got := tg.OnPort(10011); got != netip.MustParseAddrPort("192.0.2.1:10011") {
		t.Errorf("OnPort(10011) = %v", got)
	}
}

func TestCounts(t *testing.T) {
	n, neg := int64(5), int64(-1)
	for _, tc := range []struct {
		got, want protocols.Count
	}{
		{protocols.CountOf(&n), protocols.Known(5)},
		{protocols.CountOf(&neg), protocols.Count{}},
		{protocols.CountOf(nil), protocols.Count{}},
		{protocols.ParseCount(" 12 "), protocols.Known(12)},
		{protocols.ParseCount("-3"), protocols.Count{}},
		{protocols.ParseCount("x"), protocols.Count{}},
		{protocols.ParseCount("4294967296"), protocols.Count{}}, // past 32 bits
	} {
		if tc.got != tc.want {
			t.Errorf("%+v, want %+v", tc.got, tc.want)
		}
	}
}

func TestLookup(t *testing.T) {
	kvs := []protocols.KV{{Key: "a", Value: "1"}, {Key: "b", Value: ""}, {Key: "a", Value: "2"}}
	if v, ok := protocols.Lookup(kvs, "a"); v != "1" || !ok {
		t.Errorf("a: %q, %v", v, ok)
	}
	if v, ok := protocols.Lookup(kvs, "b"); v != "" || !ok {
		t.Errorf("b: %q, %v", v, ok)
	}
	if _, ok := protocols.Lookup(kvs, "c"); ok {
		t.Error("c found")
	}
}

func TestBasicAuth(t *testing.T) {
	// RFC 7617's example.
	got := protocols.BasicAuth("Aladdin", "open sesame")
	if got.Reveal() != "Basic QWxhZGRpbjpvcGVuIHNlc2FtZQ==" || fmt.Sprint(got) != "<secret>" {
		t.Errorf("BasicAuth: %q (prints %v)", got.Reveal(), got)
	}
}

// QuerySecret adds a set secret to the query, masked, and names the option in errors.
func TestQuerySecret(t *testing.T) {
	req, none := wire.HTTPRequest{Path: "/s?a=1"}, wire.HTTPRequest{Path: "/s"}
	if s, err := protocols.QuerySecret(&req, "x token", "token", "k&y", ""); err != nil || s != "k&y" || req.Path != "/s?a=1&token=k%26y" || !req.SecretQuery {
		t.Errorf("%q %v %+v", s, err, req)
	}
	_, err := protocols.QuerySecret(&none, "x token", "token", "k", "/nonexistent")
	if _, err2 := protocols.QuerySecret(&none, "x token", "token", "", ""); err == nil || !strings.HasPrefix(err.Error(), "x token: ") || err2 != nil || none.Path != "/s" {
		t.Errorf("both set: %v; none: %v %+v", err, err2, none)
	}
}

func TestPhase(t *testing.T) {
	tr := wire.NewTrace()
	var errs []protocols.PhaseError
	if v, ok := protocols.Phase(&errs, tr, "players", func() (int, error) { return 3, nil }); v != 3 || !ok {
		t.Errorf("success: %d, %v", v, ok)
	}
	boom := errors.New("boom")
	if v, ok := protocols.Phase(&errs, tr, "rules", func() (int, error) { return 1, boom }); v != 1 || ok {
		t.Errorf("failure: %d, %v (the value is kept)", v, ok)
	}
	if len(errs) != 1 || errs[0].Phase != "rules" || errs[0].Err != boom {
		t.Errorf("phase errors %+v", errs)
	}
	if len(tr.Phases) != 2 || tr.Phases[0].Name != "players" || tr.Phases[1].Name != "rules" || tr.Phases[1].Err != boom {
		t.Errorf("trace phases %+v", tr.Phases)
	}
}

func TestInfoPhase(t *testing.T) {
	tr := wire.NewTrace()
	want := &protocols.Result{Name: "x"}
	res, err := protocols.InfoPhase(context.Background(), protocols.Target{Host: "h"}, tr, func(_ context.Context, tg protocols.Target, _ *wire.Trace) (*protocols.Result, error) {
		if tg.Host != "h" {
			t.Errorf("target %+v", tg)
		}
		return want, nil
	})
	if res != want || err != nil || len(tr.Phases) != 1 || tr.Phases[0].Name != "info" {
		t.Errorf("%v, %v, phases %+v", res, err, tr.Phases)
	}
}

func TestOnUDP(t *testing.T) {
	want := &protocols.Result{Name: "x"}
	res, err := protocols.OnUDP(prototest.Context(t, 10*time.Second), protocols.At(prototest.Silent(t)), nil, 3, func(_ context.Context, conn *wire.UDPConn, _ *wire.Trace) (*protocols.Result, error) {
		if conn == nil || conn.Retries != 3 {
			t.Errorf("conn %+v: want one with the module's retries", conn)
		}
		return want, nil
	})
	if res != want || err != nil {
		t.Errorf("%v, %v", res, err)
	}
}

func TestDialTCP(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	prototest.NoError(t, err)
	addr := ln.Addr().(*net.TCPAddr).AddrPort()
	ctx := prototest.Context(t, 10*time.Second)
	tr := wire.NewTrace()
	conn, p, err := protocols.DialTCP(ctx, addr, tr, "login")
	prototest.NoError(t, err)
	conn.Close()
	tr.End(p, nil)
	ln.Close() // the port refuses now
	tr2 := wire.NewTrace()
	if _, _, err := protocols.DialTCP(ctx, addr, tr2, "login"); err == nil {
		t.Error("a closed port connected")
	}
	if len(tr.Phases) != 1 || tr.Phases[0].Name != "login" || len(tr2.Phases) != 1 || tr2.Phases[0].Err == nil {
		t.Errorf("phases %+v, %+v: want the caller's, and the failed dial's ended with its error", tr.Phases, tr2.Phases)
	}
}

type page struct {
	Name string `json:"name"`
}

func TestJSONPage(t *testing.T) {
	_, addr := prototest.HTTP(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path != "/status" || r.Header.Get("Accept") != "application/json" {
			http.NotFound(w, r)
			return
		}
		w.Header().Set("Content-Type", "application/json")
		fmt.Fprint(w, `{"name":"srv"}`)
	}), false)
	decode := func(b []byte) (page, error) {
		var p page
		return p, json.Unmarshal(b, &p)
	}
	result := func(p page, players bool) *protocols.Result {
		res := &protocols.Result{Name: p.Name}
		if players {
			res.PlayerList = []protocols.Player{}
		}
		return res
	}
	q, err := protocols.JSONPage("/status", 1<<10, decode, result)(protocols.Settings{Players: true})
	prototest.NoError(t, err)
	ctx := prototest.Context(t, 10*time.Second)
	res, err := q.Query(ctx, protocols.At(addr), nil)
	if err != nil || res.Name != "srv" || res.PlayerList == nil {
		t.Errorf("%+v, %v", res, err)
	}
}

func TestAPIJSON(t *testing.T) {
	srv, addr := prototest.HTTP(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/doc":
			if r.Method != http.MethodPost || r.Header.Get("Accept") != "application/json" || r.Header.Get("X-Kept") != "1" {
				http.Error(w, "bad request", http.StatusBadRequest)
				return
			}
			w.Header().Set("Content-Type", "application/json")
			fmt.Fprint(w, `{"ok":true}`)
		case "/html":
			fmt.Fprint(w, "<html></html>")
		default:
			http.Error(w, "gone", http.StatusGone)
		}
	}), false)
	api := &protocols.API{Base: srv.URL}
	ctx := prototest.Context(t, 10*time.Second)
	refusedErr := errors.New("refused")
	refused := func(resp *wire.HTTPResponse) error {
		if resp.Status != http.StatusGone {
			t.Errorf("refused got HTTP %d", resp.Status)
		}
		return refusedErr
	}
	post := wire.HTTPRequest{Method: http.MethodPost, Header: http.Header{"X-Kept": {"1"}}, Body: []byte("{}")}
	if body, err := api.JSON(ctx, addr, nil, "test doc", "/doc", post, refused); err != nil || string(body) != `{"ok":true}` {
		t.Errorf("doc: %q, %v", body, err)
	}
	if _, err := api.JSON(ctx, addr, nil, "test doc", "/missing", wire.HTTPRequest{}, refused); err != refusedErr {
		t.Errorf("410: %v, want refused's error", err)
	}
	if _, err := api.JSON(ctx, addr, nil, "test doc", "/html", wire.HTTPRequest{}, refused); err == nil || !strings.HasPrefix(err.Error(), "test doc: ") {
		t.Errorf("HTML page: %v, want an error naming the request", err)
	}
}
