package cube2

import (
	"bytes"
	"errors"
	"slices"
	"sync/atomic"
	"testing"
	"time"

	"github.com/gameserver-exporter/gameserver_exporter/protocols"
	"github.com/gameserver-exporter/gameserver_exporter/protocols/prototest"
	"github.com/gameserver-exporter/gameserver_exporter/protocols/wire"
)

// fakeServer answers like a Sauerbraten server: info requests with the echo and
// an info body, extinfo requests with the datagrams its hooks return.
type fakeServer struct {
	t       testing.TB
	info    []byte // info reply body (after the echo)
	players func(n int) [][]byte
	uptime  [][]byte
	// counts of requests seen
	infoN, playersN, uptimeN atomic.Int32
}

// body strips the echo of a vector built for the request echoLen bytes long.
func body(t testing.TB, file string, echoLen int) []byte {
	return prototest.HexFile(t, file)[echoLen:]
}

func (f *fakeServer) handle(req []byte) [][]byte {
	switch {
	case len(req) == 0:
		f.t.Errorf("empty request")
		return nil
	case req[0] != 0:
		f.infoN.Add(1)
		if f.info == nil {
			return nil
		}
		return [][]byte{append(slices.Clone(req), f.info...)}
	case bytes.Equal(req, playersRequest()):
		n := int(f.playersN.Add(1))
		if f.players == nil {
			return nil
		}
		return f.players(n)
	case bytes.Equal(req, uptimeRequest()):
		f.uptimeN.Add(1)
		return f.uptime
	}
	f.t.Errorf("unexpected request % X", req)
	return nil
}

func query(t *testing.T, s protocols.Settings, deadline time.Duration, f *fakeServer) (*protocols.Result, *wire.Trace, error) {
	t.Helper()
	f.t = t
	return prototest.QueryNew(t, Protocol, prototest.UDP(t, f.handle), s, deadline)
}

// full is a server with three clients (Alice, Bob, a bot) answering every request.
func full(t testing.TB) *fakeServer {
	ids, alice, bob, bot := prototest.HexFile(t, "ext_ids.hex"), prototest.HexFile(t, "ext_stats_alice.hex"), prototest.HexFile(t, "ext_stats_bob.hex"), prototest.HexFile(t, "ext_stats_bot.hex")
	return &fakeServer{
		info:    body(t, "info_sauer_ctf.hex", len(pingWide)),
		players: func(int) [][]byte { return [][]byte{ids, alice, bob, bot} },
		uptime:  [][]byte{prototest.HexFile(t, "ext_uptime.hex")},
	}
}

func names(res *protocols.Result) []string {
	var out []string
	for _, p := range res.PlayerList {
		out = append(out, p.Name)
	}
	return out
}

func phases(tr *wire.Trace) map[string]error {
	m := map[string]error{}
	for _, p := range tr.Phases {
		m[p.Name] = p.Err
	}
	return m
}

func TestQueryRoundTrip(t *testing.T) {
	f := full(t)
	res, tr, err := query(t, protocols.Settings{Players: true, Rules: true}, 2*time.Second, f)
	if err != nil {
		t.Fatal(err)
	}
	checkInfo(t, res, infoVectors[0].want)
	if got := names(res); !slices.Equal(got, []string{"Alice", "Bob", "bot"}) {
		t.Errorf("players = %q", got)
	}
	if res.Bots != protocols.Known(1) || !res.PlayerList[2].Bot || res.PlayerList[0].Team != "good" {
		t.Errorf("bots %+v, list %+v", res.Bots, res.PlayerList)
	}
	if !slices.Contains(res.Rules, protocols.KV{Key: "uptime", Value: "3600"}) ||
		!slices.Contains(res.Rules, protocols.KV{Key: "mode_name", Value: "ctf"}) {
		t.Errorf("rules = %+v", res.Rules)
	}
	if res.Uptime != protocols.SpanSeconds(3600) || res.MapTime.Known {
		t.Errorf("uptime %+v, map time %+v: want the extinfo uptime, 3600 s, and no map time", res.Uptime, res.MapTime)
	}
	ph := phases(tr)
	if len(ph) != 3 || ph["info"] != nil || ph["players"] != nil || ph["rules"] != nil || res.PhaseErrors != nil {
		t.Errorf("phases %+v, phase errors %+v", tr.Phases, res.PhaseErrors)
	}
}

func TestQueryInfoOnly(t *testing.T) {
	f := full(t)
	res, tr, err := query(t, protocols.Settings{}, 2*time.Second, f)
	if err != nil {
		t.Fatal(err)
	}
	if res.PlayerList != nil || res.Rules != nil || res.Bots.Known || res.Uptime.Known || len(tr.Phases) != 1 {
		t.Errorf("result %+v, phases %+v", res, tr.Phases)
	}
	if f.playersN.Load() != 0 || f.uptimeN.Load() != 0 {
		t.Error("extinfo requested without players or rules")
	}
}

func TestQueryPlayersOutOfOrderAndDuplicated(t *testing.T) {
	f := full(t)
	ids, alice, bob, bot := prototest.HexFile(t, "ext_ids.hex"), prototest.HexFile(t, "ext_stats_alice.hex"), prototest.HexFile(t, "ext_stats_bob.hex"), prototest.HexFile(t, "ext_stats_bot.hex")
	f.players = func(int) [][]byte { return [][]byte{bot, alice, ids, alice, bob, ids} }
	res, tr, err := query(t, protocols.Settings{Players: true}, 2*time.Second, f)
	if err != nil {
		t.Fatal(err)
	}
	// The server's client order, not the arrival order.
	if got := names(res); !slices.Equal(got, []string{"Alice", "Bob", "bot"}) || res.PhaseErrors != nil {
		t.Errorf("players = %q, phase errors %+v", got, res.PhaseErrors)
	}
	if f.uptimeN.Load() != 0 || res.Rules != nil || phases(tr)["rules"] != nil {
		t.Error("uptime asked without rules")
	}
}

func TestQueryPlayersMissingRecord(t *testing.T) {
	f := full(t)
	ids, alice, bot := prototest.HexFile(t, "ext_ids.hex"), prototest.HexFile(t, "ext_stats_alice.hex"), prototest.HexFile(t, "ext_stats_bot.hex")
	f.players = func(int) [][]byte { return [][]byte{ids, alice, bot} } // Bob's datagram is lost every time
	res, tr, err := query(t, protocols.Settings{Players: true, Rules: true, Retries: 1}, 400*time.Millisecond, f)
	if err != nil {
		t.Fatal(err)
	}
	if !hasPhaseError(res, "players") || !errors.Is(phases(tr)["players"], wire.ErrTimeout) {
		t.Fatalf("phase errors %+v", res.PhaseErrors)
	}
	// What arrived is reported; the bot count is not, as it may be incomplete.
	if got := names(res); !slices.Equal(got, []string{"Alice", "bot"}) || res.Bots.Known {
		t.Errorf("players = %q, bots %+v", got, res.Bots)
	}
	if hasPhaseError(res, "rules") || f.uptimeN.Load() != 1 {
		t.Errorf("uptime: %+v, %d requests (answered the first time, so not re-sent)", res.PhaseErrors, f.uptimeN.Load())
	}
	if f.playersN.Load() != 2 {
		t.Errorf("%d player requests, want 2 (one retry)", f.playersN.Load())
	}
}

func TestQueryPlayersRetryCompletes(t *testing.T) {
	f := full(t)
	ids, alice, bob, bot := prototest.HexFile(t, "ext_ids.hex"), prototest.HexFile(t, "ext_stats_alice.hex"), prototest.HexFile(t, "ext_stats_bob.hex"), prototest.HexFile(t, "ext_stats_bot.hex")
	f.players = func(n int) [][]byte {
		if n == 1 {
			return [][]byte{alice, bot} // the client list and Bob are lost
		}
		return [][]byte{ids, alice, bob, bot}
	}
	res, _, err := query(t, protocols.Settings{Players: true, Retries: 2}, 900*time.Millisecond, f)
	if err != nil {
		t.Fatal(err)
	}
	if got := names(res); !slices.Equal(got, []string{"Alice", "Bob", "bot"}) || res.PhaseErrors != nil || res.Bots != protocols.Known(1) {
		t.Errorf("players = %q, phase errors %+v", got, res.PhaseErrors)
	}
}

func TestQueryExtinfoSilent(t *testing.T) {
	f := full(t)
	f.players, f.uptime = nil, nil // extinfo disabled (server mods can)
	res, tr, err := query(t, protocols.Settings{Players: true, Rules: true}, 300*time.Millisecond, f)
	if err != nil {
		t.Fatal(err)
	}
	if res.Name != "Red Server" || !hasPhaseError(res, "players") || !hasPhaseError(res, "rules") || res.PlayerList != nil {
		t.Errorf("result %+v", res)
	}
	if ph := phases(tr); !errors.Is(ph["players"], wire.ErrTimeout) || !errors.Is(ph["rules"], wire.ErrTimeout) {
		t.Errorf("phases %+v", tr.Phases)
	}
	// The attributes are still rules.
	if !slices.Contains(res.Rules, protocols.KV{Key: "protocol", Value: "260"}) {
		t.Errorf("rules %+v", res.Rules)
	}
}

func TestQueryExtinfoErrors(t *testing.T) {
	for _, tc := range []struct {
		file string
		want error
	}{
		{"ext_error.hex", wire.ErrServer},
		{"ext_bad_type.hex", wire.ErrMalformed},
		{"ext_stats_cut.hex", wire.ErrTruncated},
	} {
		t.Run(tc.file, func(t *testing.T) {
			f := full(t)
			reply := prototest.HexFile(t, tc.file)
			f.players = func(int) [][]byte { return [][]byte{reply} }
			res, _, err := query(t, protocols.Settings{Players: true}, 2*time.Second, f)
			if err != nil {
				t.Fatal(err)
			}
			if len(res.PhaseErrors) != 1 || !errors.Is(res.PhaseErrors[0].Err, tc.want) || res.PlayerList != nil || res.Bots.Known {
				t.Errorf("phase errors %+v, want %v; players %+v", res.PhaseErrors, tc.want, res.PlayerList)
			}
		})
	}
}

func TestQueryRedEclipseSendsNoExtinfo(t *testing.T) {
	f := &fakeServer{info: body(t, "info_redeclipse_players.hex", 1)}
	res, _, err := query(t, protocols.Settings{Players: true, Rules: true}, 2*time.Second, f)
	if err != nil {
		t.Fatal(err)
	}
	if res.Game != gameRedEclipse || !slices.Equal(names(res), []string{"Alice", "Bob"}) || res.PhaseErrors != nil {
		t.Errorf("result %+v", res)
	}
	if f.playersN.Load() != 0 || f.uptimeN.Load() != 0 {
		t.Error("extinfo sent to Red Eclipse")
	}
}

func TestQueryErrors(t *testing.T) {
	for _, tc := range []struct {
		name     string
		handler  prototest.Handler
		deadline time.Duration
		want     error
	}{
		{"other_echo_is_mismatch", func(req []byte) [][]byte { return [][]byte{prototest.HexFile(t, "bad_echo.hex")} }, 300 * time.Millisecond, wire.ErrMismatch},
		{"truncated_is_truncated", func(req []byte) [][]byte { return [][]byte{append(slices.Clone(req), 0, 5, 0x80)} }, 2 * time.Second, wire.ErrTruncated},
		{"lying_count_is_too_large", func(req []byte) [][]byte {
			return [][]byte{append(slices.Clone(req), 0, 0x81, 0xFF, 0xFF, 0, 0)}
		}, 2 * time.Second, wire.ErrTooLarge},
		{"garbage_is_mismatch", func(req []byte) [][]byte { return [][]byte{[]byte("\xff\xff\xff\xffgarbage")} }, 300 * time.Millisecond, wire.ErrMismatch},
	} {
		t.Run(tc.name, func(t *testing.T) {
			addr := prototest.UDP(t, tc.handler)
			tr := wire.NewTrace()
			start := time.Now()
			_, err := prototest.MustNew(t, Protocol, protocols.Settings{Retries: 1}).Query(prototest.Context(t, tc.deadline), protocols.At(addr), tr)
			if !errors.Is(err, tc.want) {
				t.Fatalf("err = %v, want %v", err, tc.want)
			}
			if el := time.Since(start); el > tc.deadline+time.Second+prototest.LagSince(start) {
				t.Errorf("took %v", el)
			}
			if ph := phases(tr); len(ph) != 1 || !errors.Is(ph["info"], tc.want) {
				t.Errorf("phases %+v", tr.Phases)
			}
		})
	}
}

// Silence and a closed port are failures too: the contract checks them.
func TestQuerierContract(t *testing.T) {
	f := full(t)
	f.t = t
	prototest.QuerierContract(t, prototest.Contract{
		Protocol: Protocol, Name: "cube2", DefaultPort: 28785, PortOffset: 1, Transport: "udp",
		Answer: f.handle, WantName: "Red Server", RetryAttempts: 2,
	})
}

func TestQueryPingIsRandomAndWide(t *testing.T) {
	reqs := make(chan []byte, 8)
	addr := prototest.UDP(t, func(req []byte) [][]byte {
		reqs <- slices.Clone(req)
		return [][]byte{append(slices.Clone(req), body(t, "info_sauer_ctf.hex", len(pingWide))...)}
	})
	q := prototest.MustNew(t, Protocol, protocols.Settings{})
	for range 2 {
		if _, err := q.Query(prototest.Context(t, 2*time.Second), protocols.At(addr), nil); err != nil {
			t.Fatal(err)
		}
	}
	seen := [][]byte{<-reqs, <-reqs}
	if len(reqs) != 0 || len(seen[0]) != 5 || seen[0][0] != 0x81 || bytes.Equal(seen[0], seen[1]) {
		t.Errorf("requests % X", seen)
	}
}

func TestNewSettings(t *testing.T) {
	q := prototest.MustNew(t, Protocol, protocols.Settings{Retries: 2, Players: true, Rules: true}).(*querier)
	if q.retries != 2 || !q.players || !q.rules {
		t.Errorf("querier %+v", q)
	}
}
