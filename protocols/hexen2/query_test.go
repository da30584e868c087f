package hexen2

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"regexp"
	"sync"
	"testing"
	"time"

	"github.com/gameserver-exporter/gameserver_exporter/protocols"
	"github.com/gameserver-exporter/gameserver_exporter/protocols/prototest"
	"github.com/gameserver-exporter/gameserver_exporter/protocols/wire"
)

// fake is a Hexen II server's control-packet side, as net_dgrm.c answers: server
// info for the game name HEXENII only, a player by index while the index is below
// its active clients (silence past them), and the rule after the named one.
type fake struct {
	info    []byte
	players map[byte][]byte // index -> reply; a missing index is silence
	rules   map[string][]byte
}

func (f fake) handler(t testing.TB) prototest.Handler {
	return func(req []byte) [][]byte {
		op, body, skip, err := control(req)
		if skip != nil || err != nil {
			t.Errorf("request % X is no control packet: %v %v", req, skip, err)
			return nil
		}
		switch op {
		case reqServerInfo:
			if !bytes.Equal(body, []byte("HEXENII\x00\x04")) {
				return nil // another game: the engine says nothing
			}
			return [][]byte{f.info}
		case reqPlayerInfo:
			if p, ok := f.players[body[0]]; ok {
				return [][]byte{bytes.Clone(p)} // the querier blanks the address in place
			}
		case reqRuleInfo:
			return [][]byte{f.rules[string(bytes.TrimSuffix(body, []byte{0}))]}
		}
		return nil
	}
}

func stock(t testing.TB) fake {
	return fake{
		info:    prototest.VecFile(t, "info"),
		players: map[byte][]byte{0: prototest.VecFile(t, "player0"), 1: prototest.VecFile(t, "player1")},
		rules: map[string][]byte{
			"": prototest.VecFile(t, "rule_maxspeed"), "sv_maxspeed": prototest.VecFile(t, "rule_teamplay"), "teamplay": prototest.VecFile(t, "rule_end"),
		},
	}
}

var all = protocols.Settings{Players: true, Rules: true}

func TestQuery(t *testing.T) {
	t.Parallel()
	addr := prototest.UDP(t, stock(t).handler(t))
	res, tr := prototest.QueryOK(t, Protocol, addr, all, 2*time.Second)
	want := []protocols.Player{
		{Name: "Paladin", Score: known(17), Duration: 754, DurationKnown: true},
		{Name: "Necro01", Score: known(-3), Duration: 60, DurationKnown: true},
	}
	if res.Name != "Castle of the Dragon" || res.Map != "demo1" || res.Players != known(2) || res.MaxPlayers != known(16) || res.Version != "4" {
		t.Errorf("result %+v", res)
	}
	if fmt.Sprint(res.PlayerList) != fmt.Sprint(want) {
		t.Errorf("players %+v, want %+v", res.PlayerList, want)
	}
	if fmt.Sprint(res.Rules) != "[{sv_maxspeed 640} {teamplay 0}]" || res.PhaseErrors != nil {
		t.Errorf("rules %v, phase errors %v", res.Rules, res.PhaseErrors)
	}
	if tr.Attempts != 6 || len(tr.Phases) != 3 {
		t.Errorf("%d requests (want info, 2 players, 3 rules), phases %+v", tr.Attempts, tr.Phases)
	}
	prototest.NoSecrets(t, nil, tr, nil, "192.0.2.7", "198.51.100.3") // the players' addresses, blanked in the datagrams the trace keeps
	// Hexen II has no bots to tell apart (stock servers run none): unknown.
	prototest.CheckBots(t, res, 2, prototest.Unknown, true)
}

func TestQueryInfoOnly(t *testing.T) {
	t.Parallel()
	addr := prototest.UDP(t, stock(t).handler(t))
	res, tr, err := prototest.QueryNew(t, Protocol, addr, protocols.Settings{}, 2*time.Second)
	if err != nil || res.PlayerList != nil || res.Rules != nil || tr.Attempts != 1 {
		t.Errorf("%v, %+v, %d requests", err, res, tr.Attempts)
	}
}

// A player who left between the server info and the player request leaves the
// index unanswered: the players phase fails, the rules still come.
func TestQueryPlayerGone(t *testing.T) {
	t.Parallel()
	f := stock(t)
	delete(f.players, 1)
	res, _ := prototest.QueryOK(t, Protocol, prototest.UDP(t, f.handler(t)), all, 2*time.Second)
	if len(res.PlayerList) != 1 || len(res.Rules) != 2 || len(res.PhaseErrors) != 1 ||
		res.PhaseErrors[0].Phase != "players" || !errors.Is(res.PhaseErrors[0].Err, wire.ErrTimeout) {
		t.Errorf("players %v rules %v phase errors %v", res.PlayerList, res.Rules, res.PhaseErrors)
	}
}

func TestQueryFailures(t *testing.T) {
	t.Parallel()
	loop := stock(t)
	loop.rules = map[string][]byte{"": prototest.VecFile(t, "rule_maxspeed"), "sv_maxspeed": prototest.VecFile(t, "rule_maxspeed")}
	endless := stock(t)
	endless.rules = nil
	wrongIndex := stock(t)
	wrongIndex.players = map[byte][]byte{0: prototest.VecFile(t, "player1"), 1: prototest.VecFile(t, "player1")}
	tests := []struct {
		name    string
		f       fake
		handler func(f fake) prototest.Handler
		err     error            // the query's
		phases  map[string]error // or its phase errors
	}{
		{name: "rejected", f: fake{info: prototest.VecFile(t, "reject")}, err: wire.ErrServer},
		{name: "cut info", f: fake{info: prototest.VecFile(t, "short_info")}, err: wire.ErrTruncated},
		{name: "lying length", f: fake{info: prototest.VecFile(t, "bad_length")}, err: wire.ErrMalformed},
		{name: "not control", f: fake{info: prototest.VecFile(t, "not_control")}, err: wire.ErrMalformed},
		{name: "rule loop", f: loop, phases: map[string]error{"rules": wire.ErrMismatch}},
		{name: "wrong player", f: wrongIndex, phases: map[string]error{"players": wire.ErrMismatch}},
		{name: "endless rules", f: endless, handler: func(f fake) prototest.Handler {
			h := f.handler(t)
			return func(req []byte) [][]byte {
				if req[4] != reqRuleInfo {
					return h(req)
				}
				return [][]byte{packet(repRuleInfo, append(append([]byte("r"), req[5:len(req)-1]...), "x\x00v\x00"...)...)}
			}
		}, phases: map[string]error{"rules": wire.ErrTooLarge}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			h := tc.f.handler(t)
			if tc.handler != nil {
				h = tc.handler(tc.f)
			}
			d := 2 * time.Second
			if tc.name == "not control" || tc.name == "rule loop" || tc.name == "wrong player" {
				d = 400 * time.Millisecond // only skipped datagrams: the deadline ends it
			}
			start := time.Now()
			res, _, err := prototest.QueryNew(t, Protocol, prototest.UDP(t, h), protocols.Settings{Players: true, Rules: true, Retries: 1}, d)
			if !errors.Is(err, tc.err) || (tc.err == nil) != (err == nil) {
				t.Fatalf("err = %v, want %v", err, tc.err)
			}
			if el := time.Since(start); el > d+2*time.Second+prototest.LagSince(start) {
				t.Errorf("returned after %v", el)
			}
			if err != nil {
				return
			}
			if len(res.PhaseErrors) != len(tc.phases) {
				t.Errorf("phase errors %v, want %v", res.PhaseErrors, tc.phases)
			}
			for _, pe := range res.PhaseErrors {
				if !errors.Is(pe.Err, tc.phases[pe.Phase]) {
					t.Errorf("phase %s: %v, want %v", pe.Phase, pe.Err, tc.phases[pe.Phase])
				}
			}
		})
	}
}

func TestQuerierContract(t *testing.T) {
	t.Parallel()
	h := stock(t).handler(t)
	prototest.QuerierContract(t, prototest.Contract{
		Protocol: Protocol, Name: "hexen2", DefaultPort: 26900, Transport: "udp",
		Settings: protocols.Settings{Players: true, Rules: true},
		Answer:   h,
		Check: func(t testing.TB, res *protocols.Result, _ *wire.Trace) {
			if res.Name != "Castle of the Dragon" || len(res.PlayerList) != 2 || len(res.Rules) != 2 {
				t.Errorf("result %+v", res)
			}
		},
		RetryDeadline: 1500 * time.Millisecond,
	})
}

func BenchmarkQuery(b *testing.B) {
	prototest.QueryBench(b, Protocol, protocols.Settings{Players: true, Rules: true}, prototest.UDP(b, stock(b).handler(b)))
}

// unquoted is the one line of quakestat -json's h2s record that is no JSON: it
// prints the server's own address key without quotes.
var unquoted = regexp.MustCompile(`("address": )([^",\n]+),`)

type qstatH2 struct {
	prototest.QstatServer
	Players []struct {
		Name  string `json:"name"`
		Score int    `json:"score"`
	} `json:"players"`
}

// TestQstat queries the same fake server with quakestat -h2s -P (the Hexen II
// NetQuake query) and with the Querier: name, map, counts and players agree.
// quakestat drops high-half (coloured) characters where we show the letter, so the
// server name here is plain.
func TestQstat(t *testing.T) {
	prototest.NeedQstat(t)
	f := stock(t)
	f.info = packet(repServerInfo, []byte("127.0.0.1:26900\x00Plain Castle\x00demo2\x00\x02\x10\x04")...)
	addr := prototest.UDP(t, f.handler(t))
	out := prototest.Qstat(t, "-json", "-P", "-timeout", "5", "-h2s", addr.String())
	var recs []qstatH2
	if err := json.Unmarshal(unquoted.ReplaceAll(out, []byte(`$1"$2",`)), &recs); err != nil || len(recs) != 1 {
		t.Fatalf("quakestat output does not parse: %v\n%s", err, out)
	}
	qs := recs[0]
	res, _ := prototest.QueryOK(t, Protocol, addr, all, 5*time.Second)
	if qs.Name != res.Name || qs.Map != res.Map || int64(qs.NumPlayers) != res.Players.Value || int64(qs.MaxPlayers) != res.MaxPlayers.Value {
		t.Errorf("querier %q %q %d/%d, qstat %+v", res.Name, res.Map, res.Players.Value, res.MaxPlayers.Value, qs.QstatServer)
	}
	// quakestat 2.17 asks for player 0 only (it re-sends index 0 and never asks
	// for 1): every player it lists must be ours, in our order.
	if len(qs.Players) == 0 || len(qs.Players) > len(res.PlayerList) {
		t.Fatalf("players %+v, qstat %+v", res.PlayerList, qs.Players)
	}
	for i, p := range qs.Players {
		if ours := res.PlayerList[i]; p.Name != ours.Name || p.Score != int(ours.Score.Value) {
			t.Errorf("player %d: %q %d, qstat %q %d", i, ours.Name, ours.Score.Value, p.Name, p.Score)
		}
	}
}

// TestGamedig pins why gamedig is no reference here: its hexen2 game sends
// HexenWorld's QuakeWorld-style status (FF FF FF FF FF "status"), which a Hexen II
// (NetQuake) server does not answer, so it fails where the Querier reads the
// server.
func TestGamedig(t *testing.T) {
	var (
		mu  sync.Mutex
		got [][]byte
	)
	h := stock(t).handler(t)
	addr := prototest.UDP(t, func(req []byte) [][]byte {
		mu.Lock()
		got = append(got, append([]byte(nil), req...))
		mu.Unlock()
		if _, _, skip, err := control(req); skip != nil || err != nil {
			return nil // not a control packet: the engine ignores it
		}
		return h(req)
	})
	if _, msg, ok := prototest.Gamedig(t, "hexen2", addr.Port(), nil); ok {
		t.Fatalf("gamedig read a NetQuake server")
	} else {
		t.Logf("gamedig: %s", msg)
	}
	mu.Lock()
	if len(got) == 0 || got[0][0] != 0xFF {
		t.Errorf("gamedig sent %q, not an out-of-band status", got)
	}
	mu.Unlock()
	if _, _, err := prototest.QueryNew(t, Protocol, addr, all, 2*time.Second); err != nil {
		t.Errorf("the Querier: %v", err)
	}
}
