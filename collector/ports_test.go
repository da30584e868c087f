package collector

import (
	"context"
	"fmt"
	"net/netip"
	"strings"
	"testing"
	"time"

	"github.com/gameserver-exporter/gameserver_exporter/config"
	"github.com/gameserver-exporter/gameserver_exporter/protocols"
	"github.com/gameserver-exporter/gameserver_exporter/protocols/wire"
)

// portQuerier answers only on one port; elsewhere it is refused at once or silent.
type portQuerier struct {
	answer uint16
	silent bool
}

func (q *portQuerier) Query(ctx context.Context, addr netip.AddrPort, tr *wire.Trace) (*protocols.Result, error) {
	if addr.Port() == q.answer {
		return &protocols.Result{Name: "found"}, nil
	}
	if q.silent {
		<-ctx.Done()
		return nil, fmt.Errorf("%w: silent", protocols.ErrTimeout)
	}
	return nil, fmt.Errorf("%w: closed", protocols.ErrRefused)
}

func TestPortOffsets(t *testing.T) {
	for _, silent := range []bool{false, true} {
		t.Run(fmt.Sprintf("silent=%v", silent), func(t *testing.T) {
			q := &portQuerier{answer: 2471, silent: silent}
			mods := map[string]*config.Module{"game": {Protocol: "fake", Port: 2456, PortOffsets: []int{0, 1, 15}}}
			h := newTestHandler(t, nil, mods)
			p := protocols.Protocol{Name: "fake", DefaultPort: 1, New: func(protocols.Settings) (protocols.Querier, error) { return q, nil }}
			if err := mods["game"].Compile(p); err != nil {
				t.Fatal(err)
			}
			start := time.Now()
			_, body := get(t, h, "/probe?module=game&target=127.0.0.1&debug=true", map[string]string{"X-Prometheus-Scrape-Timeout-Seconds": "1.4"})
			if el := time.Since(start); el > 1500*time.Millisecond {
				t.Errorf("took %s with a 0.9s budget", el)
			}
			wantAll := []string{"probe_success 1", "gameserver_query_port 2471", "trying port 2457", "trying port 2471"}
			for _, w := range wantAll {
				if !strings.Contains(body, w) {
					t.Errorf("missing %q in\n%s", w, body)
				}
			}
		})
	}
}

func TestQueryPorts(t *testing.T) {
	got, err := queryPorts(2456, []int{0, 1, 1, 15})
	if err != nil || fmt.Sprint(got) != "[2456 2457 2471]" {
		t.Errorf("queryPorts = %v, %v", got, err)
	}
	if _, err := queryPorts(65535, []int{1}); err == nil {
		t.Error("a port past 65535 must be refused")
	}
}
