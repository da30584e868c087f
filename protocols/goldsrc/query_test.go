package goldsrc

import (
	"encoding/json"
	"net/netip"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/gameserver-exporter/gameserver_exporter/protocols"
	"github.com/gameserver-exporter/gameserver_exporter/protocols/internal/steam"
	"github.com/gameserver-exporter/gameserver_exporter/protocols/internal/steam/steamtest"
	"github.com/gameserver-exporter/gameserver_exporter/protocols/prototest"
	"github.com/gameserver-exporter/gameserver_exporter/protocols/wire"
)

var all = protocols.Settings{Players: true, Rules: true}

func TestQueryA2SDialect(t *testing.T) {
	// A Steam-era HLDS: 0x6D then 0x49 for one A2S_INFO, challenge on players and
	// rules, rules split in GoldSrc fragments sent backwards and duplicated.
	frags := steamtest.Frags(t, "rules_split")
	f := &fake{
		Info:    [][]byte{readHex(t, "info_m_mod.hex"), readHex(t, "info_I_goldsrc.hex")},
		Players: one(readHex(t, "players_D.hex")),
		Rules:   [][]byte{frags[2], frags[1], frags[1], frags[0], frags[2]},
	}
	res, tr := prototest.QueryOK(t, Protocol, f.Start(t), all, answerDeadline)
	// The 0x49 wins (it has the version), the 0x6D's mod block stays in Info.
	prototest.CheckProbe(t, res, tr, nil, `"CS 1.6 Server" "de_dust2" "Counter-Strike" "1.1.2.7/Stdio" 8/32 bots 4 pw 1 [Gordon Jörg ] rules 3 info 24 partial [] | info:ok,players:ok,rules:ok`)
	prototest.CheckInfoHas(t, res, map[string]string{"protocol": "48", "mod": "1", "mod_link": "http://example.org/", "address": "192.168.0.10:27015"})
	checkKV(t, res.Info)
	if got := f.Kinds(); !slices.Equal(got, []string{"A2S_INFO", "A2S_PLAYER", "A2S_PLAYER", "A2S_RULES", "A2S_RULES"}) {
		t.Errorf("requests %v", got)
	}
}

func TestQueryTextDialect(t *testing.T) {
	t.Parallel()
	// A WON-era server: A2S_INFO is ignored, the text words answer.
	f := &fake{
		Details:     one(readHex(t, "info_m_mod.hex")),
		TextPlayers: one(readHex(t, "players_D.hex")),
		TextRules:   steamtest.Frags(t, "rules_split"),
	}
	res, tr := prototest.QueryOK(t, Protocol, f.Start(t), all, textDeadline)
	prototest.CheckProbe(t, res, tr, nil, `"Sven été" "svencoop1" "Sven Co-op" "" 4/16 bots 2 pw 2 [Gordon Jörg ] rules 3 info 20 partial [] | info:ok,players:ok,rules:ok`)
	prototest.CheckInfoHas(t, res, map[string]string{"mod_size": "123456"})
	// The 0x6D came after "details" was sent: either dialect may have answered, so
	// players and rules go out both ways; the text words answer here.
	// (The A2S requests may still be in flight when the query returns: not compared.)
	if got := f.Kinds(); len(got) < 5 || !slices.Equal(got[:3], []string{"A2S_INFO", "details", "players"}) || !slices.Contains(got, "rules") {
		t.Errorf("requests %v", got)
	}
}

// Info replies, each named for how the server gives it; the queries run at once.
func TestQueryFallbacks(t *testing.T) {
	t.Parallel()
	split := splitGold(readHex(t, "info_I_goldsrc.hex"), 3)
	dropping := &fake{Info: one(readHex(t, "info_I_goldsrc.hex")), Players: one(readHex(t, "players_D.hex")), DropFirst: true}
	both := &fake{Details: one(readHex(t, "info_m_mod.hex")), Players: one(readHex(t, "players_D.hex"))}
	hltv := &fake{Info: one(readHex(t, "info_m_hltv.hex"))}
	emptyList := func(t *testing.T, res *protocols.Result, _ *wire.Trace) {
		if res.PlayerList == nil || len(res.PlayerList) != 0 || len(res.PhaseErrors) != 0 {
			t.Errorf("players %v, phase errors %v", res.PlayerList, res.PhaseErrors)
		}
	}
	cases := []struct {
		name  string
		srv   *fake
		s     protocols.Settings
		d     time.Duration
		want  string   // Result.Name
		sent  []string // nil: not compared
		check func(t *testing.T, res *protocols.Result, tr *wire.Trace)
	}{
		{"info C", &fake{TextInfo: one(readHex(t, "info_C.hex"))}, protocols.Settings{}, lateDeadline, "Old WON Server",
			[]string{"A2S_INFO", "details", "info"}, func(t *testing.T, res *protocols.Result, _ *wire.Trace) {
				eq(t, "players, bots", [2]protocols.Count{res.Players, res.Bots}, [2]protocols.Count{protocols.Known(5), {}})
			}},
		{"infostring", &fake{InfoString: one(readHex(t, "infostring.hex"))}, protocols.Settings{}, lateDeadline, "My CS Server",
			[]string{"A2S_INFO", "details", "info", "infostring"}, func(t *testing.T, res *protocols.Result, _ *wire.Trace) {
				eq(t, "players, max", [2]protocols.Count{res.Players, res.MaxPlayers}, [2]protocols.Count{protocols.Known(5), protocols.Known(20)})
			}},
		{"A2S answers at once", &fake{Info: one(readHex(t, "info_I_goldsrc.hex")), Details: one(readHex(t, "info_m_mod.hex"))}, protocols.Settings{},
			answerDeadline, "CS 1.6 Server", []string{"A2S_INFO"}, nil},
		{"A2S with challenge", &fake{Info: one(readHex(t, "info_I_goldsrc.hex")), InfoChallenge: true}, protocols.Settings{}, answerDeadline, "CS 1.6 Server",
			[]string{"A2S_INFO", "A2S_INFO"}, func(t *testing.T, _ *protocols.Result, tr *wire.Trace) {
				eq(t, "phases", prototest.PhaseNames(tr), "challenge,info")
			}},
		// Any reply may be split: an info reply in 3 fragments, out of order, duplicated.
		{"split info", &fake{Info: [][]byte{split[1], split[2], split[1], split[0]}}, protocols.Settings{}, answerDeadline, "CS 1.6 Server", nil, nil},
		// Garbage and replies of other types before the answer are skipped.
		{"stray packets", &fake{Info: [][]byte{[]byte("junk"), readHex(t, "players_D.hex"), readHex(t, "info_C.hex")}}, protocols.Settings{},
			answerDeadline, "Old WON Server", nil, func(t *testing.T, _ *protocols.Result, tr *wire.Trace) {
				eq(t, "ignored packets", prototest.Ignored(tr), 2)
			}},
		{"retries", dropping, protocols.Settings{Players: true, Retries: 2}, 1500 * time.Millisecond, "CS 1.6 Server", nil,
			func(t *testing.T, res *protocols.Result, _ *wire.Trace) {
				eq(t, "players, A2S_INFO sent", [2]int{len(res.PlayerList), dropping.Count("A2S_INFO")}, [2]int{3, 2})
			}},
		// The 0x6D arrives only after "details" was sent, so which dialect answered is
		// unknown: players goes out both ways and the first answer (A2S here) wins.
		{"both dialects", both, protocols.Settings{Players: true}, textDeadline, "Sven été", nil, func(t *testing.T, res *protocols.Result, _ *wire.Trace) {
			eq(t, "players, text players sent, A2S_PLAYER sent", [3]int{len(res.PlayerList), both.Count("players"), both.Count("A2S_PLAYER")}, [3]int{3, 1, 2})
		}},
		// An HLTV proxy with nobody on it sends no players reply: none is awaited.
		{"HLTV", hltv, protocols.Settings{Players: true}, answerDeadline, "HLTV relay", nil, func(t *testing.T, res *protocols.Result, tr *wire.Trace) {
			emptyList(t, res, tr)
			eq(t, "players sent, phases", [2]any{hltv.Count("A2S_PLAYER") + hltv.Count("players"), prototest.PhaseNames(tr)}, [2]any{0, "info,players"})
		}},
		// Over the text words, an empty datagram is an empty list.
		{"HLTV over the text words", &fake{Details: one(readHex(t, "info_C.hex")), TextInfo: one(readHex(t, "info_C.hex")), TextPlayers: one([]byte{})},
			protocols.Settings{Players: true}, textDeadline, "Old WON Server", nil, emptyList},
	}
	for _, tt := range cases {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel() // the fallback steps wait: the cases wait at once
			res, tr, err := query(t, tt.srv.Start(t), tt.s, tt.d)
			prototest.NoError(t, err)
			eq(t, "name", res.Name, tt.want)
			if got := tt.srv.Kinds(); tt.sent != nil && !slices.Equal(got, tt.sent) {
				t.Errorf("requests %v, want %v", got, tt.sent)
			}
			if tt.check != nil {
				tt.check(t, res, tr)
			}
		})
	}
}

// Probes that fail, or lose a phase, by their deadline (a failing query
// returns within slack of it: no hang).
func TestQueryFailures(t *testing.T) {
	t.Parallel()
	info := one(readHex(t, "info_I_goldsrc.hex"))
	cases := []struct {
		name string
		srv  *fake
		s    protocols.Settings
		d    time.Duration
		want string   // prototest.CheckProbe
		sent []string // nil: not compared
	}{
		{"truncated 0x6D", &fake{Info: one(readHex(t, "info_m_mod.hex")[:40])}, all, answerDeadline, "error truncated", nil},
		{"truncated C", &fake{TextInfo: one(readHex(t, "info_C_cut.hex"))}, all, lateDeadline, "error truncated", nil},
		{"garbage only", &fake{Info: [][]byte{[]byte("hello"), {0xFF, 0xFF}, []byte("\xFF\xFF\xFF\xFF\x44\x00")}}, all, silentDeadline, "error timeout", nil},
		{"challenge forever", &fake{Info: one(challengeReply())}, all, answerDeadline, "error challenge", nil},
		// Fragment 1 of 2 never comes.
		{"split info missing a fragment", &fake{Info: splitGold(readHex(t, "info_m_mod.hex"), 2)[:1]}, all, silentDeadline, "error timeout", nil},
		{"split players as info", &fake{Info: steamtest.Frags(t, "players_split")}, all, silentDeadline, "error timeout", nil},
		// A silent server gets every info query once.
		{"silence", &fake{}, protocols.Settings{Players: true}, silentDeadline, "error timeout | info:timeout",
			[]string{"A2S_INFO", "details", "info", "infostring"}},
		{"players and rules silent", &fake{Info: info}, all, silentDeadline,
			`"CS 1.6 Server" "de_dust2" "Counter-Strike" "1.1.2.7/Stdio" 8/32 bots 4 pw 1 - rules - info 16 partial [players:timeout rules:timeout] | info:ok,players:timeout,rules:timeout`, nil},
		{"players do not decode", &fake{Info: info, Players: one([]byte("\xFF\xFF\xFF\xFF\x44"))}, protocols.Settings{Players: true}, answerDeadline,
			`"CS 1.6 Server" "de_dust2" "Counter-Strike" "1.1.2.7/Stdio" 8/32 bots 4 pw 1 - rules - info 16 partial [players:truncated]`, nil},
	}
	for _, tt := range cases {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			start := time.Now()
			res, tr, err := query(t, tt.srv.Start(t), tt.s, tt.d)
			prototest.CheckProbe(t, res, tr, err, tt.want)
			if took := time.Since(start); took > tt.d+slack+prototest.LagSince(start) {
				t.Errorf("took %v with a %v deadline", took, tt.d)
			}
			if got := tt.srv.Kinds(); tt.sent != nil && !slices.Equal(got, tt.sent) {
				t.Errorf("requests %v, want %v", got, tt.sent)
			}
		})
	}
}

// splitGold cuts msg into n fragments with the GoldSrc split header (a2s.md §8.2).
func splitGold(msg []byte, n int) [][]byte {
	var out [][]byte
	size := (len(msg) + n - 1) / n
	for i := range n {
		part := msg[min(i*size, len(msg)):min((i+1)*size, len(msg))]
		out = append(out, append([]byte{0xFE, 0xFF, 0xFF, 0xFF, 0x39, 0x30, 0x00, 0x00, byte(i<<4 | n)}, part...))
	}
	return out
}

// The lost A2S_INFO reply is made up for within the first info stage. A silent
// server gets each of the 4 info queries, each up to 3 times, in one "info" phase.
func TestQuerierContract(t *testing.T) {
	t.Parallel()
	f := &fake{Info: one(readHex(t, "info_I_goldsrc.hex"))}
	prototest.QuerierContract(t, prototest.Contract{
		Protocol: Protocol, Name: "goldsrc", DefaultPort: 27015, Transport: "udp",
		Answer: f.Handle, WantName: "CS 1.6 Server", SilentAttempts: [2]int{4, 12},
	})
}

func TestNewSettings(t *testing.T) {
	if q, err := Protocol.New(protocols.Settings{Retries: -1}); err != nil || q.(*querier).Retries != 0 {
		t.Errorf("New: %v, %v", q, err)
	}
}

func TestOptionsErrors(t *testing.T) {
	prototest.OptionsErrors(t, Protocol, prototest.BadOptions{"encoding: koi8-r": `goldsrc options: unknown encoding "koi8-r"`})
}

// query runs the Querier against addr with a deadline d.
func query(t testing.TB, addr netip.AddrPort, s protocols.Settings, d time.Duration) (*protocols.Result, *wire.Trace, error) {
	return prototest.QueryNew(t, Protocol, addr, s, d)
}

// fake is the family's scripted server.
type fake = steamtest.Server

var challenge = steamtest.DefaultChallenge

func challengeReply() []byte { return append([]byte{0xFF, 0xFF, 0xFF, 0xFF, 0x41}, challenge...) }

func one(b []byte) [][]byte { return [][]byte{b} }

func TestBotsQuery(t *testing.T) {
	f := &fake{Info: one(readHex(t, "info_I_goldsrc.hex")), Players: one(readHex(t, "players_D.hex")), NoChallenge: true}
	res, _ := prototest.QueryOK(t, Protocol, f.Start(t), protocols.Settings{Players: true}, answerDeadline)
	steamtest.BotsQuery(t, res, 8, 4, 3)
}

func TestChallengeCache(t *testing.T) {
	t.Parallel()
	a, b := []byte{0x4B, 0xA1, 0xD5, 0x22}, []byte{0x55, 0x66, 0x77, 0x88}
	type step = steamtest.CacheStep
	steamtest.CacheSuite{Protocol: Protocol, Cache: func(q protocols.Querier) *steam.ChallengeCache { return q.(*querier).Challenges },
		Challenge: a, Info: one(readHex(t, "info_I_goldsrc.hex")), Name: "CS 1.6 Server", Timeout: answerDeadline, InfoOnly: true,
		Cases: []steamtest.CacheCase{{Name: "a server dropping a stale challenge gets A2S_INFO without it in the first stage",
			Fake: &fake{InfoChallenge: true, DropWrong: true, Challenge: a},
			Steps: []step{{Reqs: 2, Phases: "challenge,info", Cached: true},
				// the stale one (silence), the plain one, the new challenge: no text query
				{Challenge: b, Reqs: 3, Phases: "challenge,info", Hit: true, Cached: true}, {Reqs: 1, Phases: "info", Hit: true, Cached: true}},
			Timeout: lateDeadline},
			{Name: "a plain A2S_INFO answered at once drops the cached challenge",
				Fake: &fake{DropWrong: true, Challenge: a}, Steps: []step{{Reqs: 2, Phases: "info", Hit: true}, {Reqs: 1, Phases: "info"}},
				Seed: b, Timeout: lateDeadline}},
	}.Run(t)
}

// The cache is the querier's (one per module): another querier pays the challenge.
func TestChallengeCachePerQuerier(t *testing.T) {
	t.Parallel()
	f := &fake{Info: one(readHex(t, "info_I_goldsrc.hex")), InfoChallenge: true}
	addr := f.Start(t)
	q1, q2 := newCachingQuerier(t), newCachingQuerier(t)
	for i, tt := range []struct {
		q    *querier
		reqs int
	}{{q1, 2}, {q1, 1}, {q2, 2}, {q2, 1}, {q1, 1}} {
		before := f.Count("A2S_INFO")
		if _, _, err := prototest.QueryWithin(t, tt.q, addr, answerDeadline); err != nil {
			t.Fatalf("probe %d: %v", i+1, err)
		}
		if n := f.Count("A2S_INFO") - before; n != tt.reqs {
			t.Errorf("probe %d: %d A2S_INFO, want %d", i+1, n, tt.reqs)
		}
	}
}

// The players phase is unchanged by the cache: A2S_PLAYER still follows its own
// challenge, and the dialect stays A2S.
func TestChallengeCachePlayers(t *testing.T) {
	t.Parallel()
	f := &fake{Info: one(readHex(t, "info_I_goldsrc.hex")), InfoChallenge: true, Players: one(readHex(t, "players_D.hex"))}
	addr := f.Start(t)
	q := prototest.MustNew(t, Protocol, protocols.Settings{Players: true})
	for i, want := range []string{"challenge,info,players", "info,players"} {
		res, tr, err := prototest.QueryWithin(t, q, addr, answerDeadline)
		if err != nil || len(res.PhaseErrors) != 0 {
			t.Fatalf("probe %d: %v %v", i+1, err, res)
		}
		eq(t, "players", len(res.PlayerList), 3)
		eq(t, "phases", prototest.PhaseNames(tr), want)
	}
	eq(t, "requests", strings.Join(f.Kinds(), ","), "A2S_INFO,A2S_INFO,A2S_PLAYER,A2S_PLAYER,A2S_INFO,A2S_PLAYER,A2S_PLAYER")
}

func TestChallengeCacheConcurrent(t *testing.T) {
	t.Parallel()
	f := &fake{Info: one(readHex(t, "info_I_goldsrc.hex")), InfoChallenge: true, DropWrong: true}
	q := newCachingQuerier(t)
	steamtest.CacheConcurrent(t, q, q.Challenges, f.Start(t), challenge)
}

// newCachingQuerier returns a querier with the default options: a challenge cache.
func newCachingQuerier(t *testing.T) *querier {
	return prototest.MustNew(t, Protocol, protocols.Settings{}).(*querier)
}

// TestQstat queries the same fake server with quakestat and with the Querier.
// quakestat -hls sends the text words "details", "players" and "rules" (checked by
// hand on a listening socket); -hlqs sends "infostring". Its numplayers is the wire
// count, bots included; Result.Players excludes them, so Result.Bots is added back.
func TestQstat(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name, flag string
		srv        *fake
		full       bool // also compare players and rules (-P -R)
	}{
		{"WON server, text words only", "-hls", &fake{Details: one(readHex(t, "info_m_plain.hex")),
			TextPlayers: one(readHex(t, "players_D.hex")), TextRules: steamtest.Frags(t, "rules_split")}, true},
		{"HLDS answering A2S and details", "-hls", &fake{Info: one(readHex(t, "info_m_plain.hex")), Details: one(readHex(t, "info_m_plain.hex")),
			Players: one(readHex(t, "players_D.hex")), Rules: steamtest.Frags(t, "rules_split"),
			TextPlayers: one(readHex(t, "players_D.hex")), TextRules: steamtest.Frags(t, "rules_split")}, true},
		{"HLTV proxy, 0x6D without bots", "-hls", &fake{Details: one(readHex(t, "info_m_hltv.hex"))}, false},
		{"infostring", "-hlqs", &fake{InfoString: one(readHex(t, "infostring.hex"))}, false},
	}
	prototest.NeedQstat(t)
	for _, tt := range cases {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			addr, d := tt.srv.Start(t), textDeadline
			if tt.flag == "-hlqs" {
				d = lateDeadline
			}
			res := steamtest.QstatQuery(t, tt.flag, addr, Protocol, protocols.Settings{Players: tt.full, Rules: tt.full}, d)
			if tt.full {
				comparePlayersRules(t, addr.String(), res)
			}
		})
	}
}

// comparePlayersRules compares the player list and the server's own rules with
// quakestat -P -R (which adds rules of its own, such as gamedir, from the info reply).
func comparePlayersRules(t *testing.T, addr string, res *protocols.Result) {
	t.Helper()
	out := prototest.Qstat(t, "-json", "-timeout", "5", "-P", "-R", "-hls", addr)
	var recs []struct {
		Rules   map[string]string `json:"rules"`
		Players []struct {
			Name  string `json:"name"`
			Score int64  `json:"score"`
		} `json:"players"`
	}
	if err := json.Unmarshal(out, &recs); err != nil || len(recs) != 1 {
		t.Fatalf("quakestat output %q: %v", out, err)
	}
	qs := recs[0]
	if len(qs.Players) != len(res.PlayerList) {
		t.Fatalf("qstat %d players, Querier %d", len(qs.Players), len(res.PlayerList))
	}
	for i, p := range qs.Players {
		eq(t, "score", res.PlayerList[i].Score.Value, p.Score)
		if ascii(res.PlayerList[i].Name) { // qstat mangles non-ASCII bytes
			eq(t, "player name", res.PlayerList[i].Name, p.Name)
		}
	}
	for _, r := range res.Rules {
		if ascii(r.Value) {
			eq(t, "rule "+r.Key, r.Value, qs.Rules[r.Key])
		}
	}
}

func ascii(s string) bool { return !strings.ContainsFunc(s, func(r rune) bool { return r >= 0x80 }) }

// BenchmarkQuery runs a whole A2S-dialect query (info, players with challenge,
// split rules) against a loopback fake server.
func BenchmarkQuery(b *testing.B) {
	f := &fake{Info: one(readHex(b, "info_I_goldsrc.hex")), Players: one(readHex(b, "players_D.hex")), Rules: steamtest.Frags(b, "rules_split")}
	prototest.QueryBench(b, Protocol, protocols.Settings{Players: true, Rules: true}, f.Start(b))
}

// Deadlines of the round-trip tests. The info fallback sends "details" after half
// the deadline and "info"/"infostring" after 3/4 and 7/8 of it, so a test that needs
// a later query gets a longer deadline (the fake's answer then has room even on a
// loaded machine); tests where the server answers at once cost nothing extra.
const (
	silentDeadline = 300 * time.Millisecond  // the query must fail
	textDeadline   = 2 * time.Second         // answered by "details" (after 1 s; then its players, on a loaded machine)
	lateDeadline   = 1600 * time.Millisecond // answered by "info" or "infostring"
	answerDeadline = 3 * time.Second         // answered at once
	// slack bounds how long after its deadline a failing query may return: it only
	// catches hangs, not timings.
	slack = 2 * time.Second
)
