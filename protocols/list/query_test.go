package list

import (
	"context"
	"errors"
	"net/netip"
	"strings"
	"testing"
	"time"

	"github.com/gameserver-exporter/gameserver_exporter/protocols"
	"github.com/gameserver-exporter/gameserver_exporter/protocols/master"
	"github.com/gameserver-exporter/gameserver_exporter/protocols/prototest"
	"github.com/gameserver-exporter/gameserver_exporter/protocols/wire"
)

// fakeCache holds one source, "community", once it has a list.
type fakeCache struct {
	hasList bool
	entries []master.Entry
}

func (f *fakeCache) Lookup(source string, addr netip.AddrPort, host string) (master.Entry, bool, bool) {
	if source != "community" || !f.hasList {
		return master.Entry{}, false, false
	}
	for _, e := range f.entries {
		if e.Addr.IsValid() && e.Addr == addr || e.Host != "" && e.Host == host {
			return e, true, true
		}
	}
	return master.Entry{}, false, true
}

// useCache puts c in the process for the test.
func useCache(t *testing.T, c master.Cache) {
	master.SetCache(c)
	t.Cleanup(func() { master.SetCache(nil) })
}

// querierOf is the list querier of source.
func querierOf(t *testing.T, source string, players bool) protocols.Querier {
	return prototest.MustNew(t, Protocol, protocols.Settings{Players: players, Options: prototest.OptionsOf(Options{Source: source})})
}

func TestQuery(t *testing.T) {
	ark := master.Entry{Addr: netip.MustParseAddrPort("192.0.2.7:7777"), Name: "ARK #1", Map: "TheIsland_WP", Game: "ASA",
		Version: "v47.1", Players: protocols.Known(12), Max: protocols.Known(70), Password: protocols.FlagFalse}
	named := master.Entry{Host: "play.example.org:30000", Name: "Luanti", Players: protocols.Known(3)}
	c := &fakeCache{hasList: true, entries: []master.Entry{ark, named}}
	useCache(t, c)

	cases := []struct {
		name   string
		source string
		target protocols.Target
		want   *master.Entry
		err    error
	}{
		{"listed", "community", protocols.At(ark.Addr), &ark, nil},
		{"listed by name", "community", protocols.Target{Addr: netip.MustParseAddrPort("198.51.100.1:30000"), Host: "Play.Example.org."}, &named, nil},
		{"not listed", "community", protocols.At(netip.MustParseAddrPort("192.0.2.8:7777")), nil, wire.ErrNotListed},
		{"other port", "community", protocols.At(netip.MustParseAddrPort("192.0.2.7:7778")), nil, wire.ErrNotListed},
		{"unknown source", "nosuch", protocols.At(ark.Addr), nil, wire.ErrServer},
		{"no source", "", protocols.At(ark.Addr), nil, wire.ErrServer},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			tr := wire.NewTrace()
			res, err := querierOf(t, tc.source, false).Query(prototest.Context(t, time.Second), tc.target, tr)
			if !errors.Is(err, tc.err) || tc.err == nil && err != nil {
				t.Fatalf("err %v, want %v", err, tc.err)
			}
			if len(tr.Phases) != 1 || tr.Phases[0].Name != "info" {
				t.Fatalf("phases %+v", tr.Phases)
			}
			if tc.want == nil {
				if res != nil {
					t.Fatalf("a result with the error: %+v", res)
				}
				return
			}
			if res.Name != tc.want.Name || res.Map != tc.want.Map || res.Game != tc.want.Game || res.Version != tc.want.Version ||
				res.Players != tc.want.Players || res.MaxPlayers != tc.want.Max || res.Password != tc.want.Password {
				t.Fatalf("result %+v, want from %+v", res, tc.want)
			}
			prototest.CheckBots(t, res, tc.want.Players.Value, prototest.Unknown, false) // lists do not tell bots apart
		})
	}

	// A source without a list yet, no lists in the process, a cancelled probe.
	q := querierOf(t, "community", false)
	c.hasList = false
	if _, err := q.Query(context.Background(), protocols.At(ark.Addr), nil); !errors.Is(err, wire.ErrServer) {
		t.Fatalf("no list yet: %v", err)
	}
	master.SetCache(nil)
	if _, err := q.Query(context.Background(), protocols.At(ark.Addr), nil); !errors.Is(err, wire.ErrServer) {
		t.Fatalf("no cache: %v", err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := q.Query(ctx, protocols.At(ark.Addr), nil); !errors.Is(err, wire.ErrTimeout) {
		t.Fatalf("cancelled: %v", err)
	}
}

// awaitingCache is a cache that starts its source on demand: Await says how
// the first fetch went.
type awaitingCache struct {
	fakeCache
	awaited []string
	err     error
	// during runs while the first fetch "runs" (a deadline passing).
	during func()
}

func (a *awaitingCache) Await(ctx context.Context, source string) error {
	a.awaited = append(a.awaited, source)
	if a.during != nil {
		a.during()
	}
	if err := ctx.Err(); err != nil {
		return err
	}
	if a.err == nil {
		a.hasList = true
	}
	return a.err
}

// TestQueryAwaits: a cache that starts lists on demand is awaited before the
// lookup, within the probe's deadline; its failure is the probe's.
func TestQueryAwaits(t *testing.T) {
	ark := master.Entry{Addr: netip.MustParseAddrPort("192.0.2.7:7777"), Name: "ARK #1"}
	c := &awaitingCache{fakeCache: fakeCache{entries: []master.Entry{ark}}}
	useCache(t, c)
	q := querierOf(t, "community", false)

	res, err := q.Query(prototest.Context(t, time.Second), protocols.At(ark.Addr), nil)
	if err != nil || res.Name != "ARK #1" || len(c.awaited) != 1 || c.awaited[0] != "community" {
		t.Fatalf("%+v %v, awaited %v", res, err, c.awaited)
	}

	c.hasList, c.err = false, errors.New("first fetch of the built-in list failed: HTTP 502")
	if _, err := q.Query(prototest.Context(t, time.Second), protocols.At(ark.Addr), nil); !errors.Is(err, wire.ErrServer) || !strings.Contains(err.Error(), "502") {
		t.Fatalf("failed first fetch: %v", err)
	}

	// The deadline passes while the first fetch runs.
	c.err = nil
	ctx, cancel := context.WithCancel(context.Background())
	c.during = cancel
	if _, err := q.Query(ctx, protocols.At(ark.Addr), nil); !errors.Is(err, wire.ErrTimeout) || !strings.Contains(err.Error(), "still being fetched") {
		t.Fatalf("deadline while fetching: %v", err)
	}
}

// TestQueryPlayerNames: a list that names the players (BeamMP's playerslist,
// Factorio's and Luanti's arrays) gives them as the player list, when the module
// asks for players.
func TestQueryPlayerNames(t *testing.T) {
	drift := master.Entry{Addr: netip.MustParseAddrPort("192.0.2.10:30814"), Name: "Drift", Players: protocols.Known(3), PlayerNames: "Ann\nBo\nCy"}
	useCache(t, &fakeCache{hasList: true, entries: []master.Entry{drift}})
	for players, want := range map[bool]string{false: "[]", true: "[Ann Bo Cy]"} {
		res, err := querierOf(t, "community", players).Query(prototest.Context(t, time.Second), protocols.At(drift.Addr), wire.NewTrace())
		prototest.NoError(t, err)
		if got := prototest.PlayerNames(res); got != want {
			t.Errorf("players %v: names %s, want %s", players, got, want)
		}
	}
}
