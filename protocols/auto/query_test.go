package auto

import (
	"context"
	"errors"
	"net/netip"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/gameserver-exporter/gameserver_exporter/protocols"
	"github.com/gameserver-exporter/gameserver_exporter/protocols/catalog"
	"github.com/gameserver-exporter/gameserver_exporter/protocols/prototest"
	"github.com/gameserver-exporter/gameserver_exporter/protocols/wire"
)

func newAuto(t *testing.T, s protocols.Settings) protocols.Querier {
	return prototest.MustNew(t, Protocol, s)
}

// TestFindsProtocol: on a port the catalog does not know, the defaults are raced
// and the one protocol the fake speaks wins, well before the deadline: the
// others are cancelled, not waited for.
func TestFindsProtocol(t *testing.T) {
	tests := []struct {
		name, proto, server string
		addr                func(*testing.T) netip.AddrPort
	}{
		{"a2s", "a2s", "A2S Test", func(t *testing.T) netip.AddrPort { return prototest.A2SServer(t) }},
		{"quake3", "quake3", "Q3 Test", func(t *testing.T) netip.AddrPort { return prototest.Quake3Server(t, "12 48 \"Player\"\n") }},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			addr := tc.addr(t)
			tr := wire.NewTrace()
			const deadline = 30 * time.Second
			start := time.Now()
			res, err := newAuto(t, protocols.Settings{}).Query(prototest.Context(t, deadline), protocols.At(addr), tr)
			prototest.NoError(t, err)
			if el := time.Since(start); el > deadline/2+prototest.LagSince(start) {
				t.Errorf("took %s: the losers were waited for until the deadline", el)
			}
			if res.Protocol != tc.proto || res.QueryPort != addr.Port() || res.Name != tc.server {
				t.Errorf("protocol %q port %d name %q, want %s on %d named %q", res.Protocol, res.QueryPort, res.Name, tc.proto, addr.Port(), tc.server)
			}
			if !prototest.Logged(tr, "auto: "+tc.proto+" answered on port") {
				t.Errorf("log: %+v", tr.Entries)
			}
			if len(tr.Phases) == 0 || tr.Attempts < 2 || len(tr.Packets) < 2 {
				t.Errorf("the winner's phases and every candidate's packets belong in the trace: %+v, %d attempts, %d packets", tr.Phases, tr.Attempts, len(tr.Packets))
			}
		})
	}
}

// TestSilent: a target that never answers fails as a timeout by the deadline, the
// error and the log naming every protocol tried, one failed phase per protocol.
func TestSilent(t *testing.T) {
	addr := prototest.Silent(t)
	tr := wire.NewTrace()
	const deadline = 300 * time.Millisecond
	start := time.Now()
	_, err := newAuto(t, protocols.Settings{Retries: 1}).Query(prototest.Context(t, deadline), protocols.At(addr), tr)
	if el := time.Since(start); el > deadline+2*time.Second+prototest.LagSince(start) {
		t.Errorf("returned after %s, deadline %s", el, deadline)
	}
	if wire.Reason(err) != "timeout" {
		t.Fatalf("err = %v, want a timeout", err)
	}
	for _, p := range defaults {
		if !strings.Contains(err.Error(), p+" on ") || !prototest.Logged(tr, "auto: "+p+" on port") {
			t.Errorf("%s missing from the error or the log:\n%v\n%+v", p, err, tr.Entries)
		}
	}
	if len(tr.Phases) != len(defaults) {
		t.Errorf("phases %+v, want one per protocol tried", tr.Phases)
	}
	for _, ph := range tr.Phases {
		if ph.Err == nil {
			t.Errorf("phase %s did not fail", ph.Name)
		}
	}
}

// TestRefused: a port nothing listens on is refused, not a timeout.
func TestRefused(t *testing.T) {
	_, err := newAuto(t, protocols.Settings{}).Query(prototest.Context(t, 5*time.Second), protocols.At(prototest.ClosedUDPPort(t)), nil)
	if !errors.Is(err, wire.ErrRefused) {
		t.Errorf("err = %v, want refused", err)
	}
}

// TestCancelled: a probe already cancelled fails as a timeout.
func TestCancelled(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := newAuto(t, protocols.Settings{}).Query(ctx, protocols.At(prototest.Silent(t)), nil); wire.Reason(err) != "timeout" {
		t.Errorf("err = %v, want timeout", err)
	}
}

// TestSocketsClosed: once Query returns, every candidate's socket is closed (or,
// on the portable path, back in its pool for the next query), although only one
// of them answered: queries after the first leave no more descriptors open. A
// shared socket's rotation (shared_pool_linux.go) may hold one more for a moment:
// a leak is what stays.
func TestSocketsClosed(t *testing.T) {
	if _, err := os.ReadDir("/proc/self/fd"); err != nil {
		t.Skip("no /proc/self/fd")
	}
	q := newAuto(t, protocols.Settings{})
	addr := prototest.A2SServer(t)
	fds := func() int { d, _ := os.ReadDir("/proc/self/fd"); return len(d) }
	query := func() {
		if _, err := q.Query(prototest.Context(t, 30*time.Second), protocols.At(addr), nil); err != nil {
			t.Fatal(err)
		}
	}
	query()
	before := fds()
	for range 5 {
		query()
	}
	after := fds()
	for end := time.Now().Add(2 * time.Second); after > before && time.Now().Before(end); after = fds() {
		time.Sleep(10 * time.Millisecond)
	}
	if after > before {
		t.Errorf("%d descriptors open before, %d after: sockets outlive Query", before, after)
	}
}

// TestOptions: the protocols block limits the candidates, and names only known
// protocols.
func TestOptions(t *testing.T) {
	limit := func(names ...string) protocols.Settings {
		return protocols.Settings{Options: func(v any) error { v.(*Options).Protocols = names; return nil }}
	}
	_, err := newAuto(t, limit("quake3")).Query(prototest.Context(t, 300*time.Millisecond), protocols.At(prototest.A2SServer(t)), nil)
	if err == nil || strings.Contains(err.Error(), "a2s") {
		t.Errorf("a module limited to quake3 must not try a2s: %v", err)
	}
	if _, err := Protocol.New(limit("nope")); err == nil || !strings.Contains(err.Error(), "nope") {
		t.Errorf("unknown protocol: %v", err)
	}
	if _, err := Protocol.New(protocols.Settings{Options: func(any) error { return errors.New("field x not found") }}); err == nil {
		t.Error("a bad options block must fail")
	}
}

// TestSecondWave: on a port whose protocol does not answer (here the catalog
// says quake3, the server speaks A2S), the common protocols follow on the
// target's port and find it; a server that answers the port's protocol is sent
// nothing more.
func TestSecondWave(t *testing.T) {
	q := newAuto(t, protocols.Settings{}).(*querier)
	addr := prototest.A2SServer(t)
	q.games = []catalog.Game{{Module: "q3game", Protocol: "quake3", Port: addr.Port(), Offsets: []int{0}}}
	tr := wire.NewTrace()
	// quake3 goes unanswered: the second wave starts after a third of the time.
	if res, err := q.Query(prototest.Context(t, 6*time.Second), protocols.At(addr), tr); err != nil || res.Protocol != "a2s" || res.QueryPort != addr.Port() {
		t.Fatalf("%v %+v, want a2s on %d", err, res, addr.Port())
	}

	q3 := prototest.Quake3Server(t, "")
	q.games = []catalog.Game{{Module: "q3game", Protocol: "quake3", Port: q3.Port(), Offsets: []int{0}}}
	tr = wire.NewTrace()
	res, err := q.Query(prototest.Context(t, 30*time.Second), protocols.At(q3), tr)
	if err != nil || res.Protocol != "quake3" {
		t.Fatalf("%v %+v", err, res)
	}
	for _, e := range tr.Entries {
		if strings.HasPrefix(e.Msg, "a2s: ") || strings.HasPrefix(e.Msg, "minecraft: ") {
			t.Errorf("the second wave was sent although the first answered: %s", e.Msg)
		}
	}
	if tr.Attempts != 1 {
		t.Errorf("%d requests sent, want the one quake3 getstatus", tr.Attempts)
	}
}
