package cube2

import (
	"bytes"
	"fmt"
	"slices"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/gameserver-exporter/gameserver_exporter/protocols"
	"github.com/gameserver-exporter/gameserver_exporter/protocols/prototest"
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

// full is a server with three clients (Alice, Bob, a bot) answering every request.
func full(t testing.TB) *fakeServer {
	ids, alice, bob, bot := prototest.HexFile(t, "ext_ids.hex"), prototest.HexFile(t, "ext_stats_alice.hex"), prototest.HexFile(t, "ext_stats_bob.hex"), prototest.HexFile(t, "ext_stats_bot.hex")
	return &fakeServer{
		info:    body(t, "info_sauer_ctf.hex", len(pingWide)),
		players: func(int) [][]byte { return [][]byte{ids, alice, bob, bot} },
		uptime:  [][]byte{prototest.HexFile(t, "ext_uptime.hex")},
	}
}

func TestQueryReplies(t *testing.T) {
	ids, alice, bob, bot := prototest.HexFile(t, "ext_ids.hex"), prototest.HexFile(t, "ext_stats_alice.hex"), prototest.HexFile(t, "ext_stats_bob.hex"), prototest.HexFile(t, "ext_stats_bot.hex")
	reply := func(b ...[]byte) func(int) [][]byte { return func(int) [][]byte { return b } }
	echoed := func(tail ...byte) prototest.Handler {
		return func(req []byte) [][]byte { return [][]byte{append(slices.Clone(req), tail...)} }
	}
	players := protocols.Settings{Players: true}
	for _, tc := range []struct {
		name    string
		s       protocols.Settings
		d       time.Duration
		players func(n int) [][]byte // nil: the client list and the three records
		h       prototest.Handler    // instead of full's
		want    string
		asked   string // player and uptime requests
	}{
		// The info's client count leaves bots out (numclients(-1, false, true):
		// spectators in, AI out), so it is the humans as sent; the bots are the
		// extinfo records with client numbers from 128, known only with the list.
		{"round trip", protocols.Settings{Players: true, Rules: true}, 2 * time.Second, nil, nil,
			`"Red Server" "forge" "Sauerbraten" "260" 3/16 bots 1 pw 1 [Alice Bob bot] rules 8 info 9 partial [] | info:ok,players:ok,rules:ok`, "1/1"},
		{"info only", protocols.Settings{}, 2 * time.Second, nil, nil, `"Red Server" "forge" "Sauerbraten" "260" 3/16 bots ? pw 1 - rules - info 9 partial [] | info:ok skipped 0 log 0`, "0/0"},
		// The server's client order, not the arrival order; no uptime asked without rules.
		{"players out of order and duplicated", players, 2 * time.Second, reply(bot, alice, ids, alice, bob, ids), nil, `"Red Server" "forge" "Sauerbraten" "260" 3/16 bots 1 pw 1 [Alice Bob bot] rules - info 9 partial [] | info:ok,players:ok skipped 0 log 0`, "1/0"},
		// Bob's datagram is lost every time: what arrived is reported; the bot
		// count is not, as it may be incomplete. The uptime, answered the first
		// time, is not re-sent.
		{"players missing record", protocols.Settings{Players: true, Rules: true, Retries: 1}, 400 * time.Millisecond, reply(ids, alice, bot), nil, `"Red Server" "forge" "Sauerbraten" "260" 3/16 bots ? pw 1 [Alice bot] rules 8 info 9 partial [players:timeout] | info:ok,rules:ok,players:timeout skipped 0 log 0`, "2/1"},
		{"players retry completes", protocols.Settings{Players: true, Retries: 2}, 900 * time.Millisecond, func(n int) [][]byte {
			if n == 1 {
				return [][]byte{alice, bot} // the client list and Bob are lost
			}
			return [][]byte{ids, alice, bob, bot}
		}, nil, `"Red Server" "forge" "Sauerbraten" "260" 3/16 bots 1 pw 1 [Alice Bob bot] rules - info 9 partial [] | info:ok,players:ok skipped 0 log 0`, ""},
		// Extinfo disabled (server mods can): the attributes are still rules.
		{"extinfo silent", protocols.Settings{Players: true, Rules: true}, 300 * time.Millisecond, func(int) [][]byte { return nil }, nil, `"Red Server" "forge" "Sauerbraten" "260" 3/16 bots ? pw 1 - rules 7 info 9 partial [rules:timeout players:timeout] | info:ok,players:timeout,rules:timeout skipped 0 log 0`, ""},
		{"extinfo error", players, 2 * time.Second, reply(prototest.HexFile(t, "ext_error.hex")), nil, `"Red Server" "forge" "Sauerbraten" "260" 3/16 bots ? pw 1 - rules - info 9 partial [players:server_error] | info:ok,players:server_error skipped 0 log 0`, "1/0"},
		{"extinfo bad type", players, 2 * time.Second, reply(prototest.HexFile(t, "ext_bad_type.hex")), nil, `"Red Server" "forge" "Sauerbraten" "260" 3/16 bots ? pw 1 - rules - info 9 partial [players:malformed] | info:ok,players:malformed skipped 0 log 0`, "1/0"},
		{"extinfo stats cut", players, 2 * time.Second, reply(prototest.HexFile(t, "ext_stats_cut.hex")), nil, `"Red Server" "forge" "Sauerbraten" "260" 3/16 bots ? pw 1 - rules - info 9 partial [players:truncated] | info:ok,players:truncated skipped 0 log 0`, "1/0"},
		{"other echo", protocols.Settings{Retries: 1}, 300 * time.Millisecond, nil, func([]byte) [][]byte { return [][]byte{prototest.HexFile(t, "bad_echo.hex")} }, `error mismatch | info:mismatch`, ""},
		{"truncated", protocols.Settings{Retries: 1}, 2 * time.Second, nil, echoed(0, 5, 0x80), `error truncated | info:truncated skipped 0 log 0`, ""},
		{"lying count", protocols.Settings{Retries: 1}, 2 * time.Second, nil, echoed(0, 0x81, 0xFF, 0xFF, 0, 0), `error too_large | info:too_large skipped 0 log 0`, ""},
		{"garbage", protocols.Settings{Retries: 1}, 300 * time.Millisecond, nil, func([]byte) [][]byte { return [][]byte{[]byte("\xff\xff\xff\xffgarbage")} }, `error mismatch | info:mismatch`, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f := full(t)
			if tc.players != nil {
				f.players = tc.players
			}
			if tc.name == "extinfo silent" {
				f.uptime = nil
			}
			h := tc.h
			if h == nil {
				h = f.handle
			}
			f.t = t
			res, tr, err := prototest.QueryNew(t, Protocol, prototest.UDP(t, h), tc.s, tc.d)
			prototest.CheckProbe(t, res, tr, err, tc.want)
			if got := fmt.Sprintf("%d/%d", f.playersN.Load(), f.uptimeN.Load()); tc.asked != "" && got != tc.asked {
				t.Errorf("player/uptime requests %s, want %s", got, tc.asked)
			}
			if tc.name == "extinfo silent" && !slices.Contains(res.Rules, protocols.KV{Key: "protocol", Value: "260"}) {
				t.Errorf("rules %+v", res.Rules)
			}
			if tc.name != "round trip" {
				return
			}
			prototest.CheckBots(t, res, 3, 1, true)
			if line, _, _ := strings.Cut(prototest.ReadJSON[want](t, "testdata/info_sauer_ctf.expected.json").Line, " | "); infoLine(res) != line {
				t.Errorf("got  %s\nwant %s", infoLine(res), line)
			}
			if !res.PlayerList[2].Bot || res.PlayerList[0].Team != "good" || !slices.Contains(res.Rules, protocols.KV{Key: "uptime", Value: "3600"}) ||
				!slices.Contains(res.Rules, protocols.KV{Key: "mode_name", Value: "ctf"}) {
				t.Errorf("list %+v, rules %+v", res.PlayerList, res.Rules)
			}
			if res.Uptime != protocols.SpanSeconds(3600) || res.MapTime.Known {
				t.Errorf("uptime %+v, map time %+v: want the extinfo uptime, 3600 s, and no map time", res.Uptime, res.MapTime)
			}
		})
	}
}

func TestQueryRedEclipseSendsNoExtinfo(t *testing.T) {
	f := &fakeServer{t: t, info: body(t, "info_redeclipse_players.hex", 1)}
	res, tr, err := prototest.QueryNew(t, Protocol, prototest.UDP(t, f.handle), protocols.Settings{Players: true, Rules: true}, 2*time.Second)
	prototest.CheckProbe(t, res, tr, err, `"RE Srv" "venus" "Red Eclipse" "1.6.0" 2/24 bots ? pw 2 [Alice Bob] rules 15 info 17 partial [] | info:ok skipped 0 log 0`)
	if f.playersN.Load() != 0 || f.uptimeN.Load() != 0 {
		t.Error("extinfo sent to Red Eclipse")
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

// TestQstatCrossCheck queries the same fake server with `quakestat -cubes` and
// with the Querier. quakestat takes the game port and queries port + 1 (with the
// ping 80 10 27), so it is given the fake server's port - 1. Its mode and master
// mode rules are off by one attribute and not compared.
func TestQstatCrossCheck(t *testing.T) {
	prototest.NeedQstat(t)
	for _, tc := range []struct {
		name string
		body func(t *testing.T) []byte
	}{
		{"plain", func(t *testing.T) []byte { return body(t, "info_sauer_plain.hex", 1) }},
		{"paused_password", func(t *testing.T) []byte { return body(t, "info_sauer_paused.hex", 1) }},
		{"realworld_capture", func(t *testing.T) []byte {
			req := prototest.Capture(t, "cube2_sauerbraten_cube2-info.req.bin")
			return prototest.Capture(t, "cube2_sauerbraten_cube2-info.resp.bin")[len(req):]
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			info := tc.body(t)
			addr := prototest.UDP(t, func(req []byte) [][]byte {
				if len(req) == 0 || req[0] == 0 {
					return nil
				}
				return [][]byte{append(slices.Clone(req), info...)}
			})
			prototest.QstatQuery(t, "-cubes", addr, Protocol, protocols.Settings{})
		})
	}
}

func BenchmarkQuery(b *testing.B) {
	f := full(b)
	f.t = b
	prototest.QueryBench(b, Protocol, protocols.Settings{Players: true, Rules: true}, prototest.UDP(b, f.handle))
}
