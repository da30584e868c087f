package collector

import (
	"net/netip"
	"strings"
	"testing"
	"time"

	"github.com/gameserver-exporter/gameserver_exporter/config"
	"github.com/gameserver-exporter/gameserver_exporter/protocols"
	"github.com/gameserver-exporter/gameserver_exporter/protocols/prototest"
)

// fakeLists lists the addresses and names of each source; a source absent
// from it has no list yet.
type fakeLists map[string][]string

func (f fakeLists) Listed(source string, addr netip.AddrPort, host string) (bool, bool) {
	l, ok := f[source]
	if !ok {
		return false, false
	}
	for _, s := range l {
		if s == addr.String() || host != "" && s == host {
			return true, true
		}
	}
	return false, true
}

// TestListed: gameserver_listed{source} is 1 or 0 per source of listed_in,
// looked up by the target's port or the queried one, and absent for a source
// without a list.
func TestListed(t *testing.T) {
	q := &prototest.FakeQuerier{Result: &protocols.Result{Name: "x"}}
	mods := map[string]*config.Module{
		"listed": {Protocol: "fake", ListedIn: []string{"master", "other", "nolist"}, PortOffsets: []int{1}},
		"plain":  {Protocol: "fake"},
	}
	r := newTestRunner(t, q, mods)
	r.Lists = fakeLists{
		"master": {"192.0.2.1:27960"}, // the game port, the target's
		"other":  {"192.0.2.2:27961"}, // the query port (offset 1)
	}
	cases := []struct {
		module, target string
		want           []string
		absent         bool
	}{
		{"listed", "192.0.2.1:27960", []string{`gameserver_listed{source="master"} 1`, `gameserver_listed{source="other"} 0`}, false},
		{"listed", "192.0.2.2:27960", []string{`gameserver_listed{source="master"} 0`, `gameserver_listed{source="other"} 1`}, false},
		{"plain", "192.0.2.1:27960", nil, true},
	}
	for _, c := range cases {
		o := run(t, r, c.module, c.target, "")
		text := string(Append(nil, o, false))
		for _, w := range c.want {
			if !strings.Contains(text, w+"\n") {
				t.Errorf("%s %s: no %q in\n%s", c.module, c.target, w, text)
			}
		}
		if strings.Contains(text, `source="nolist"`) {
			t.Errorf("a source without a list has a series:\n%s", text)
		}
		if c.absent && strings.Contains(text, "gameserver_listed") {
			t.Errorf("%s: gameserver_listed without listed_in:\n%s", c.module, text)
		}
	}
}

// TestListedIsTheModules: modules that share a query (and so its outcome) each
// get their own listed_in, not the one of the module whose probe ran the query.
func TestListedIsTheModules(t *testing.T) {
	q := &prototest.FakeQuerier{Result: &protocols.Result{Name: "x"}}
	mods := map[string]*config.Module{
		"listed": {Protocol: "fake", ListedIn: []string{"master"}},
		"plain":  {Protocol: "fake"},
	}
	r := newTestRunner(t, q, mods)
	r.MinInterval = time.Minute
	r.Lists = fakeLists{"master": {"127.0.0.1:27015"}}
	if o := run(t, r, "listed", "127.0.0.1:27015", ""); len(o.Listed) != 1 || !o.Listed[0].Listed {
		t.Fatalf("listed: %+v", o.Listed)
	}
	if o := run(t, r, "plain", "127.0.0.1:27015", ""); !o.Cached || len(o.Listed) != 0 {
		t.Errorf("plain, from the same query: cached %v, listed %+v", o.Cached, o.Listed)
	}
	if o := run(t, r, "listed", "127.0.0.1:27015", ""); !o.Cached || len(o.Listed) != 1 {
		t.Errorf("listed, from the cache: cached %v, listed %+v", o.Cached, o.Listed)
	}
	if n := q.Calls(); n != 1 {
		t.Errorf("%d queries, want 1", n)
	}
}
