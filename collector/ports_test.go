package collector

import (
	"context"
	"fmt"
	"net/netip"
	"testing"
	"time"

	"github.com/gameserver-exporter/gameserver_exporter/config"
	"github.com/gameserver-exporter/gameserver_exporter/protocols"
	"github.com/gameserver-exporter/gameserver_exporter/protocols/prototest"
	"github.com/gameserver-exporter/gameserver_exporter/protocols/wire"
)

// portQuerier answers only on one port; elsewhere it is refused at once or silent.
type portQuerier struct {
	answer uint16
	silent bool
}

func (q *portQuerier) Query(ctx context.Context, t protocols.Target, tr *wire.Trace) (*protocols.Result, error) {
	addr := t.Addr
	if addr.Port() == q.answer {
		return &protocols.Result{Name: "found"}, nil
	}
	if q.silent {
		<-ctx.Done()
		return nil, fmt.Errorf("%w: silent", wire.ErrTimeout)
	}
	return nil, fmt.Errorf("%w: closed", wire.ErrRefused)
}

func TestPortOffsets(t *testing.T) {
	for _, silent := range []bool{false, true} {
		t.Run(fmt.Sprintf("silent=%v", silent), func(t *testing.T) {
			q := &portQuerier{answer: 2471, silent: silent}
			mods := map[string]*config.Module{"game": {Protocol: "fake", Port: 2456, PortOffsets: []int{0, 1, 15}}}
			r := newTestRunner(t, nil, mods)
			p := fakeProtocol(q)
			p.DefaultPort = 1
			compile(t, mods["game"], p)
			lag := prototest.SchedulingLag(t)
			start := time.Now()
			o := run(t, r, "game", "127.0.0.1", "1.4")
			if el := time.Since(start); el > 1500*time.Millisecond+lag() {
				t.Errorf("took %s with a 0.9s budget", el)
			}
			if !o.Success() || o.QueryPort() != 2471 {
				t.Errorf("success %v (%v) on port %d, want port 2471", o.Success(), o.Err, o.QueryPort())
			}
			for _, w := range []string{"trying port 2457", "trying port 2471"} {
				if !logged(o, w) {
					t.Errorf("missing %q in %v", w, o.Trace.Entries)
				}
			}
		})
	}
}

func TestQueryPorts(t *testing.T) {
	got, err := queryPorts(nil, 2456, []int{0, 1, 1, 15})
	if err != nil || fmt.Sprint(got) != "[2456 2457 2471]" {
		t.Errorf("queryPorts = %v, %v", got, err)
	}
	if _, err := queryPorts(nil, 65535, []int{1}); err == nil {
		t.Error("a port past 65535 must be refused")
	}
}

// hostQuerier records the address and the target host name it was asked for.
type hostQuerier struct {
	addr netip.AddrPort
	host string
}

func (q *hostQuerier) Query(ctx context.Context, t protocols.Target, tr *wire.Trace) (*protocols.Result, error) {
	q.addr, q.host = t.Addr, t.Host
	return &protocols.Result{}, nil
}

func TestSRVLookup(t *testing.T) {
	q := &hostQuerier{}
	mods := map[string]*config.Module{"mc": {Protocol: "mc"}}
	r := newTestRunner(t, nil, mods)
	p := protocols.Protocol{Name: "mc", DefaultPort: 25565,
		New: func(protocols.Settings) (protocols.Querier, error) { return q, nil },
		LookupSRV: func(_ context.Context, host string) (string, uint16, bool) {
			if host == "play.example" {
				return "node7.example", 25599, true
			}
			return "", 0, false
		},
	}
	compile(t, mods["mc"], p)
	r.Resolver = staticResolver{
		"node7.example": {netip.MustParseAddr("192.0.2.7")},
		"play.example":  {netip.MustParseAddr("192.0.2.1")},
	}
	for _, tc := range []struct{ target, want, host string }{
		{"play.example", "192.0.2.7:25599", "play.example"},       // SRV followed
		{"play.example:25565", "192.0.2.1:25565", "play.example"}, // an explicit port skips SRV
		{"192.0.2.1", "192.0.2.1:25565", ""},                      // IPs have no SRV
	} {
		o := run(t, r, "mc", tc.target, "")
		if !o.Success() || q.addr.String() != tc.want || q.host != tc.host {
			t.Errorf("%s: queried %s (host %q), want %s (host %q): %v", tc.target, q.addr, q.host, tc.want, tc.host, o.Err)
		}
	}
}
