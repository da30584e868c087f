package discovery

import (
	"bytes"
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/netip"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/prometheus/common/model"

	"github.com/gameserver-exporter/gameserver_exporter/config"
	"github.com/gameserver-exporter/gameserver_exporter/protocols"
	"github.com/gameserver-exporter/gameserver_exporter/protocols/master"
	"github.com/gameserver-exporter/gameserver_exporter/protocols/prototest"
	"github.com/gameserver-exporter/gameserver_exporter/protocols/wire"
)

// fakeBeamMP serves a BeamMP-shaped list of one server, counting fetches;
// while hold is open, each fetch waits for it to close.
type fakeBeamMP struct {
	url     string
	fetches atomic.Int32
	fail    atomic.Bool
}

func newFakeBeamMP(t *testing.T, hold <-chan struct{}) *fakeBeamMP {
	f := &fakeBeamMP{}
	srv, _ := prototest.HTTP(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		f.fetches.Add(1)
		if hold != nil {
			<-hold
		}
		if f.fail.Load() {
			http.Error(w, "down", http.StatusBadGateway)
			return
		}
		w.Header().Set("Content-Type", "application/json")
		fmt.Fprint(w, `[{"ip": "192.0.2.10", "port": "30814", "sname": "^4Drift", "map": "gridmap", "players": "3", "maxplayers": "8", "password": false}]`)
	}), false)
	f.url = srv.URL + "/servers-info"
	return f
}

// builtinManager is a manager whose built-in lists are read from url.
func builtinManager(t *testing.T, url string, refresh time.Duration) *Manager {
	m := NewManager(nil)
	m.Builtin = func(p string) (*config.DiscoverySource, error) {
		s, err := config.PresetSource(p, url)
		if err == nil && refresh > 0 {
			s.Refresh = model.Duration(refresh)
		}
		return s, err
	}
	t.Cleanup(m.Stop)
	return m
}

var drift = netip.MustParseAddrPort("192.0.2.10:30814")

// await starts the built-in list source of m if it is not running, and waits
// for its first fetch.
func await(t *testing.T, m *Manager, source string) {
	t.Helper()
	if err := m.Await(prototest.Context(t, 10*time.Second), source); err != nil {
		t.Fatal(err)
	}
}

// TestBuiltinLazy: the catalog module beammp, as config builds it (no discovery
// section), reads the built-in list through protocol list; the list is not
// fetched until a probe reads it, and concurrent first probes wait for one fetch.
func TestBuiltinLazy(t *testing.T) {
	hold := make(chan struct{})
	f := newFakeBeamMP(t, hold)
	m := builtinManager(t, f.url, 0)
	master.SetCache(m)
	t.Cleanup(func() { master.SetCache(nil) })
	c, err := config.Parse(nil)
	if err != nil {
		t.Fatal(err)
	}
	mod := c.Modules["beammp"]
	if mod == nil || mod.Protocol != "list" {
		t.Fatalf("module beammp: %+v", mod)
	}
	m.Apply(c.Discovery)
	if _, _, known := m.Lookup("beammp", drift, ""); known || len(m.Statuses()) != 0 || f.fetches.Load() != 0 {
		t.Fatalf("a built-in list runs before any probe: %+v, %d fetches", m.Statuses(), f.fetches.Load())
	}
	query := func(addr netip.AddrPort) (*protocols.Result, error) {
		return mod.Querier().Query(prototest.Context(t, 10*time.Second), protocols.At(addr), wire.NewTrace())
	}

	const probes = 8
	results := make(chan *protocols.Result, probes)
	var started sync.WaitGroup
	started.Add(probes)
	for range probes {
		go func() {
			started.Done()
			res, err := query(drift)
			if err != nil {
				t.Error(err)
			}
			results <- res
		}()
	}
	started.Wait()
	close(hold)
	for range probes {
		if res := <-results; res == nil || res.Name != "Drift" || res.Map != "gridmap" || res.Players != protocols.Known(3) || res.MaxPlayers != protocols.Known(8) || res.Password != protocols.FlagFalse {
			t.Fatalf("result %+v", res)
		}
	}
	if _, err := query(netip.MustParseAddrPort("192.0.2.10:30815")); !errors.Is(err, wire.ErrNotListed) {
		t.Fatalf("another port: %v", err)
	}
	if n := f.fetches.Load(); n != 1 {
		t.Fatalf("%d fetches for %d probes, want 1", n, probes+1)
	}
	st := m.Statuses()
	if len(st) != 1 || !st[0].Builtin || st[0].Name != "beammp" || st[0].Entries != 1 {
		t.Fatalf("statuses %+v", st)
	}
	var b strings.Builder
	m.WriteSources(&b)
	if !strings.Contains(b.String(), "beammp (built-in)") {
		t.Fatalf("/modules table:\n%s", b.String())
	}
	// /sd starts nothing and says how to serve the list.
	if code, _, body := getSD(t, m, "source=minetest"); code != 404 || !strings.Contains(body, "preset: minetest") {
		t.Fatalf("/sd of a built-in list: %d %s", code, body)
	}
	if _, _, known := m.Lookup("minetest", drift, ""); known {
		t.Fatal("/sd started a built-in list")
	}
	// Only presets start: any other name is the modules file's or nothing.
	if err := m.Await(context.Background(), "nosuch"); err != nil {
		t.Fatal(err)
	}
	if len(m.Statuses()) != 1 {
		t.Fatalf("a name that is no preset started a source: %+v", m.Statuses())
	}
}

// TestBuiltinIdle: a built-in list no probe read for three refresh intervals
// stops and drops its list; the next probe starts it again.
func TestBuiltinIdle(t *testing.T) {
	f := newFakeBeamMP(t, nil)
	m := builtinManager(t, f.url, time.Millisecond)
	var now atomic.Int64
	now.Store(time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC).UnixNano())
	m.clock = func() time.Time { return time.Unix(0, now.Load()) }
	stopped := make(chan string, 1)
	m.onIdle = func(s string) { stopped <- s }

	await(t, m, "beammp")
	if _, listed, _ := m.Lookup("beammp", drift, ""); !listed {
		t.Fatal("not listed")
	}
	// The loop refreshes every millisecond; only a clock past 3 intervals
	// since the last probe stops it.
	now.Add(int64(time.Hour))
	if s := <-stopped; s != "beammp" {
		t.Fatalf("stopped %q", s)
	}
	if _, _, known := m.Lookup("beammp", drift, ""); known || len(m.Statuses()) != 0 {
		t.Fatalf("an idle built-in list still serves: %+v", m.Statuses())
	}
	before := f.fetches.Load()
	await(t, m, "beammp")
	if _, listed, _ := m.Lookup("beammp", drift, ""); !listed || f.fetches.Load() <= before {
		t.Fatalf("not started again: listed %v, fetches %d then %d", listed, before, f.fetches.Load())
	}
}

// TestBuiltinFirstFetch: a first fetch that fails is the probe's error; one
// that outlasts the probe's deadline fails the probe, not the fetch. (A preset
// that cannot start says why: TestTokenList.)
func TestBuiltinFirstFetch(t *testing.T) {
	f := newFakeBeamMP(t, nil)
	f.fail.Store(true)
	m := builtinManager(t, f.url, 0)
	err := m.Await(prototest.Context(t, 10*time.Second), "beammp")
	if err == nil || !strings.Contains(err.Error(), "502") {
		t.Fatalf("err %v, want the fetch's", err)
	}

	hold := make(chan struct{})
	slow := newFakeBeamMP(t, hold)
	m2 := builtinManager(t, slow.url, 0)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if err := m2.Await(ctx, "beammp"); !errors.Is(err, context.Canceled) {
		t.Fatalf("err %v", err)
	}
	close(hold)
	await(t, m2, "beammp")
}

// TestBuiltinShadowed: a source of the modules file named like a preset wins:
// probes read it and no built-in list starts; defining it stops a running
// built-in one.
func TestBuiltinShadowed(t *testing.T) {
	builtin := newFakeBeamMP(t, nil)
	own := newFakeBeamMP(t, nil)
	m := builtinManager(t, builtin.url, 0)
	done := make(chan error, 4)
	m.OnRefresh = func(_ string, err error) { done <- err }
	await(t, m, "beammp")
	<-done // the built-in list's first fetch
	cfg := parse(t, fmt.Sprintf("beammp: {preset: beammp, url: %q, filters: {not_empty: true}}", own.url))
	m.Apply(cfg)
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	await(t, m, "beammp")
	st := m.Statuses()
	if len(st) != 1 || st[0].Builtin {
		t.Fatalf("statuses %+v, want the modules file's source only", st)
	}
	if own.fetches.Load() != 1 || builtin.fetches.Load() != 1 {
		t.Fatalf("fetches: own %d, built-in %d", own.fetches.Load(), builtin.fetches.Load())
	}
	if _, listed, _ := m.Lookup("beammp", drift, ""); !listed {
		t.Fatal("not listed")
	}
	if code, groups, _ := getSD(t, m, "source=beammp"); code != 200 || len(groups) != 1 {
		t.Fatalf("/sd of a defined preset source: %d %+v", code, groups)
	}
}

// TestTokenList: the factorio list signs in, so it is no built-in list: its
// module says how to define it; defined with a token (here at a loopback
// fake), module factorio reads it, and the token goes to the list alone.
func TestTokenList(t *testing.T) {
	m := NewManager(nil) // the real built-in sources: factorio's must not start
	t.Cleanup(m.Stop)
	if err := m.Await(context.Background(), "factorio"); err == nil || !strings.Contains(err.Error(), "token_file: PATH") {
		t.Fatalf("err %v", err)
	}

	var signedIn atomic.Int32
	srv, _ := prototest.HTTP(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path != "/get-games" || r.URL.Query().Get("username") != "exporter" || r.URL.Query().Get("token") != "0123abcd" {
			http.Error(w, "not signed in", http.StatusForbidden)
			return
		}
		signedIn.Add(1)
		fmt.Fprint(w, `[{"host_address": "192.0.2.100:34197", "name": "Megabase", "players": ["a"], "max_players": "8", "has_password": "false",
			"application_version": {"game_version": "2.0.23"}}]`)
	}), false)
	tok := filepath.Join(t.TempDir(), "token")
	os.WriteFile(tok, []byte("0123abcd\n"), 0o600)
	c, err := config.Parse([]byte(fmt.Sprintf("discovery: {factorio: {preset: factorio, url: %q, username: exporter, token_file: %s}}", srv.URL+"/get-games", tok)))
	if err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 4)
	m.OnRefresh = func(_ string, err error) { done <- err }
	m.Apply(c.Discovery)
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	master.SetCache(m)
	t.Cleanup(func() { master.SetCache(nil) })
	res, err := c.Modules["factorio"].Querier().Query(prototest.Context(t, 10*time.Second), protocols.At(netip.MustParseAddrPort("192.0.2.100:34197")), wire.NewTrace())
	if err != nil || res.Name != "Megabase" || res.Players != protocols.Known(1) || res.Version != "2.0.23" {
		t.Fatalf("%+v %v", res, err)
	}
	if signedIn.Load() != 1 {
		t.Fatalf("%d signed-in fetches", signedIn.Load())
	}
}

// TestBuiltinSCUM: module scum's built-in source is a TCP master, not a URL: it
// starts on the first probe at the address given, and finds a server by its
// query port (the game port + 2) as the master lists it.
func TestBuiltinSCUM(t *testing.T) {
	rec := make([]byte, 127) // one record, the layout of opengsq's and GameQ's readers
	copy(rec[0:4], []byte{110, 2, 0, 192})
	binary.LittleEndian.PutUint16(rec[4:6], 7044)
	copy(rec[6:], "SCUM Island")
	rec[107], rec[108] = 37, 64
	body := append([]byte{1, 0}, rec...)
	master := prototest.TCP(t, func(c net.Conn) {
		req := make([]byte, 4)
		if _, err := io.ReadFull(c, req); err == nil && bytes.Equal(req, []byte{4, 3, 0, 0}) {
			c.Write(body)
		}
	})
	m := builtinManager(t, master.String(), 0)
	m.Apply(config.Discovery{})
	await(t, m, "scum")
	e, listed, known := m.Lookup("scum", netip.MustParseAddrPort("192.0.2.110:7044"), "")
	if !known || !listed || e.Name != "SCUM Island" || e.Players.Value != 37 || e.Max.Value != 64 {
		t.Fatalf("lookup: %+v listed %v known %v", e, listed, known)
	}
}
