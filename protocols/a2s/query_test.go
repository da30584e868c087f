package a2s

import (
	"bytes"
	"errors"
	"net/netip"
	"slices"
	"sync/atomic"
	"testing"
	"time"

	"github.com/gameserver-exporter/gameserver_exporter/protocols"
	"github.com/gameserver-exporter/gameserver_exporter/protocols/internal/steam"
	"github.com/gameserver-exporter/gameserver_exporter/protocols/internal/steam/steamtest"
	"github.com/gameserver-exporter/gameserver_exporter/protocols/prototest"
	"github.com/gameserver-exporter/gameserver_exporter/protocols/wire"
)

// fake is the family's scripted server.
type fake = steamtest.Server

func query(t *testing.T, addr netip.AddrPort, s protocols.Settings, timeout time.Duration) (*protocols.Result, *wire.Trace, error) {
	return prototest.QueryNew(t, Protocol, addr, s, timeout)
}

// probe queries f within 2s and wants every phase to succeed.
func probe(t *testing.T, f *fake, s protocols.Settings) (*protocols.Result, string) {
	t.Helper()
	res, tr, err := query(t, f.Start(t), s, 2*time.Second)
	if err != nil || len(res.PhaseErrors) != 0 {
		t.Fatal(err, res)
	}
	return res, prototest.PhaseNames(tr)
}

func one(b []byte) [][]byte { return [][]byte{b} }

// A server that hands out its challenge only through A2S_SERVERQUERY_GETCHALLENGE
// and ignores everything without it: after half the time in silence the querier
// asks for one the old way and uses it for info, players and rules.
func TestQueryLegacyChallenge(t *testing.T) {
	f := &fake{Info: one(readHex(t, "info_no_edf.hex")), Players: one(readHex(t, "player_basic.hex")),
		Rules: one(readHex(t, "rules_basic.hex")), Legacy: true, Challenge: []byte{0x12, 0x34, 0x56, 0x78}}
	// half of the deadline in silence; the rest holds the exchange on a busy machine
	res, tr, err := query(t, f.Start(t), protocols.Settings{Players: true, Rules: true}, 3*time.Second)
	if err != nil || len(res.PhaseErrors) != 0 {
		t.Fatal(err, res)
	}
	eq(t, "result", [4]any{res.Name, len(res.PlayerList), len(res.Rules), prototest.PhaseNames(tr)}, [4]any{"Test Server", 3, 3, "challenge,info,players,rules"})
	reqs := f.Sent()
	eq(t, "sent A2S_SERVERQUERY_GETCHALLENGE", slices.ContainsFunc(reqs, func(r []byte) bool { return bytes.Equal(r, getChallengeRequest) }), true)
	eq(t, "rules with the challenge", reqs[len(reqs)-1], []byte{0xFF, 0xFF, 0xFF, 0xFF, 0x56, 0x12, 0x34, 0x56, 0x78})
}

func TestQueryChallengeLoop(t *testing.T) {
	// A server that answers every A2S_INFO with a fresh challenge never converges.
	var n atomic.Int32
	addr := prototest.UDP(t, func(req []byte) [][]byte {
		c := byte(n.Add(1))
		return one([]byte{0xFF, 0xFF, 0xFF, 0xFF, steam.TypeChallenge, c, c, c, c})
	})
	if _, _, err := query(t, addr, protocols.Settings{}, 2*time.Second); !errors.Is(err, wire.ErrChallenge) {
		t.Fatalf("err = %v, want ErrChallenge", err)
	}
	eq(t, "requests", int(n.Load()), steam.MaxChallenges)
}

// frag is fragment n of 2 of a Source-layout split message with the given id.
func frag(id, n byte, p []byte) []byte {
	return append([]byte{0xFE, 0xFF, 0xFF, 0xFF, id, 0, 0, 0, 2, n, 0x50, 0}, p...)
}

// Round trips that succeed in every phase, each named for what the server does.
func TestQueryReplies(t *testing.T) {
	t.Parallel()
	info, player := readHex(t, "info_no_edf.hex"), readHex(t, "player_basic.hex")
	source := steamtest.Frags(t, "split_source")
	bzip := steamtest.Frags(t, "split_bzip2")
	full := readHex(t, "info_edf_all.hex")
	type check = func(t *testing.T, res *protocols.Result, f *fake, phases string)
	named := func(want string) check {
		return func(t *testing.T, res *protocols.Result, _ *fake, _ string) { eq(t, "name", res.Name, want) }
	}
	detailed, empty := readHex(t, "info_m_mod.hex"), one(readHex(t, "player_empty.hex"))
	for _, tt := range []struct {
		name  string
		fake  *fake
		s     protocols.Settings
		reqs  int // 0: not counted
		check check
	}{
		{"info", &fake{Info: one(full)}, protocols.Settings{}, 1, func(t *testing.T, res *protocols.Result, _ *fake, phases string) {
			eq(t, "result", [5]any{res.Name, res.Map, res.Players, res.MaxPlayers, phases}, [5]any{" Spaced Name", "pl_badwater", protocols.Known(17), protocols.Known(32), "info"})
			eq(t, "no players", res.PlayerList == nil && res.Rules == nil, true)
		}},
		{"info challenge", &fake{Info: one(info), InfoChallenge: true, Challenge: []byte{0x4B, 0xA1, 0xD5, 0x22}}, protocols.Settings{}, 2,
			func(t *testing.T, res *protocols.Result, f *fake, phases string) {
				eq(t, "name, phases", [2]string{res.Name, phases}, [2]string{"Test Server", "challenge,info"})
				eq(t, "requests", f.Sent(), [][]byte{steam.InfoRequest, steam.WithChallenge(steam.InfoRequest, []byte{0x4B, 0xA1, 0xD5, 0x22})})
			}},
		// A late second info reply comes first and must be skipped; the rules come
		// out of order, with duplicates.
		{"players and rules", &fake{Info: one(full), Players: [][]byte{full, player}, Challenge: []byte{1, 2, 3, 4},
			Rules: [][]byte{source[2], source[0], source[2], source[3], source[1], source[0]}},
			protocols.Settings{Players: true, Rules: true}, 5, func(t *testing.T, res *protocols.Result, f *fake, phases string) {
				eq(t, "phases", phases, "info,players,rules")
				eq(t, "players", [2]any{len(res.PlayerList), res.PlayerList[1].Name}, [2]any{3, "Bób ✓"})
				steamtest.BotsQuery(t, res, 17, 3, 3)
				eq(t, "rules", [2]any{len(res.Rules), res.Rules[39]}, [2]any{40, protocols.KV{Key: "rule_39", Value: "value number 39"}})
				reqs := f.Sent()
				eq(t, "players -1, with challenge, rules with challenge", [][]byte{reqs[1], reqs[2], reqs[4]},
					[][]byte{steam.PlayersRequest, {0xFF, 0xFF, 0xFF, 0xFF, 0x55, 1, 2, 3, 4}, {0xFF, 0xFF, 0xFF, 0xFF, 0x56, 1, 2, 3, 4}})
			}},
		// While the players reply is being collected, a whole split rules reply (late,
		// from an earlier query) completes: it is skipped without a re-send.
		{"late split of another type", &fake{Info: one(info), NoChallenge: true,
			Players: append(append([][]byte{frag(0x33, 0, player[:32])}, source...), frag(0x33, 1, player[32:]))},
			protocols.Settings{Players: true}, 2, func(t *testing.T, res *protocols.Result, _ *fake, _ string) { eq(t, "players", len(res.PlayerList), 3) }},
		// Rule 5: a server may answer the -1 request with the data at once.
		{"no challenge needed", &fake{Info: one(info), Players: one(readHex(t, "player_empty.hex")), NoChallenge: true},
			protocols.Settings{Players: true}, 2, func(t *testing.T, res *protocols.Result, _ *fake, _ string) {
				eq(t, "players", res.PlayerList, []protocols.Player{})
			}},
		{"The Ship players", &fake{Info: one(readHex(t, "info_theship.hex")), Players: one(readHex(t, "player_theship.hex"))},
			protocols.Settings{Players: true}, 0, func(t *testing.T, res *protocols.Result, _ *fake, _ string) {
				eq(t, "players, bot duration", [2]any{len(res.PlayerList), res.PlayerList[0].DurationKnown}, [2]any{2, false})
			}},
		// Query proxies split even A2S_INFO (GameQ #688).
		{"split info", &fake{Info: [][]byte{frag(5, 1, full[80:]), frag(5, 0, full[:80])}}, protocols.Settings{}, 0,
			named(" Spaced Name")},
		// A GoldSrc server may answer A2S_INFO twice: the 0x49 wins when it decodes.
		{"0x6D then 0x49", &fake{Info: [][]byte{detailed, full}, Players: empty}, protocols.Settings{Players: true}, 0, named(" Spaced Name")},
		{"0x49 then 0x6D", &fake{Info: [][]byte{full, detailed}, Players: empty}, protocols.Settings{Players: true}, 0, named(" Spaced Name")},
		{"0x6D alone", &fake{Info: [][]byte{detailed}, Players: empty}, protocols.Settings{Players: true}, 0, named("Old Server")},
		{"0x6D then a broken 0x49", &fake{Info: [][]byte{detailed, full[:20]}, Players: empty}, protocols.Settings{Players: true}, 0, named("Old Server")},
		{"compressed rules", &fake{Info: one(info), Rules: [][]byte{bzip[1], bzip[0]}}, protocols.Settings{Rules: true}, 0,
			func(t *testing.T, res *protocols.Result, _ *fake, _ string) { eq(t, "rules", len(res.Rules), 40) }},
	} {
		t.Run(tt.name, func(t *testing.T) {
			res, phases := probe(t, tt.fake, tt.s)
			if tt.reqs != 0 {
				eq(t, "requests", len(tt.fake.Sent()), tt.reqs)
			}
			tt.check(t, res, tt.fake, phases)
		})
	}
}

// A phase that fails costs that phase only: info stays, the error is the phase's.
func TestQueryPhaseErrors(t *testing.T) {
	t.Parallel()
	info := readHex(t, "info_no_edf.hex")
	source := steamtest.Frags(t, "split_source")
	const kept = `"Test Server" "de_dust2" "Counter-Strike" "1.0.0.1" 0/24 bots 0 pw 2 `
	for _, tt := range []struct {
		name string
		fake *fake
		s    protocols.Settings
		d    time.Duration
		want string // prototest.CheckProbe, after the info's fields
	}{
		{"bad bzip2 crc", &fake{Info: one(info), Rules: steamtest.Frags(t, "split_bzip2_badcrc")}, protocols.Settings{Rules: true}, 2 * time.Second,
			"- rules - info 0 partial [rules:malformed]"},
		{"missing fragment", &fake{Info: one(info), Rules: [][]byte{source[0], source[1], source[3]}}, protocols.Settings{Rules: true}, 300 * time.Millisecond,
			"- rules - info 0 partial [rules:timeout]"},
		{"missing fragment, re-sent", &fake{Info: one(info), Rules: [][]byte{source[0], source[1], source[3]}}, protocols.Settings{Rules: true, Retries: 1}, 300 * time.Millisecond,
			"- rules - info 0 partial [rules:timeout]"},
		// CS:GO never answers A2S_RULES: the server is still up.
		{"rules never answered", &fake{Info: one(info), Players: one(readHex(t, "player_basic.hex"))}, protocols.Settings{Players: true, Rules: true}, 300 * time.Millisecond,
			"[Alice Bób ✓ ] rules - info 0 partial [rules:timeout]"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			res, tr, err := query(t, tt.fake.Start(t), tt.s, tt.d)
			prototest.CheckProbe(t, res, tr, err, kept+tt.want)
		})
	}
}

func TestQueryFragmentRecoveredByResend(t *testing.T) {
	t.Parallel()
	// The first answer loses fragment 2; the answer to the re-send is complete.
	frags := steamtest.Frags(t, "split_source")
	var rulesAsked atomic.Int32
	info := readHex(t, "info_no_edf.hex")
	addr := prototest.UDP(t, func(req []byte) [][]byte {
		switch req[4] {
		case 'T':
			return one(info)
		case 'V':
			if rulesAsked.Add(1) == 1 {
				return [][]byte{frags[0], frags[1], frags[3]}
			}
			return [][]byte{setID(frags[0], 99), setID(frags[1], 99), setID(frags[2], 99), setID(frags[3], 99)}
		}
		return nil
	})
	res, _, err := query(t, addr, protocols.Settings{Rules: true, Retries: 1}, 600*time.Millisecond)
	if err != nil || len(res.PhaseErrors) != 0 {
		t.Fatal(err, res.PhaseErrors)
	}
	eq(t, "rules", len(res.Rules), 40)
}

// The challenge reply is lost: the info request is re-sent, then answered with
// the challenge (three sends).
func TestQuerierContract(t *testing.T) {
	t.Parallel()
	f := &fake{Info: one(readHex(t, "info_no_edf.hex")), InfoChallenge: true, Challenge: []byte{7, 7, 7, 7}}
	prototest.QuerierContract(t, prototest.Contract{
		Protocol: Protocol, Name: "a2s", DefaultPort: 27015, Transport: "udp",
		Answer: f.Handle, WantName: "Test Server", RetryAttempts: 3,
		// A silent server gets A2S_INFO and its 2 re-sends, then the fallback: one
		// more A2S_INFO, and A2S_SERVERQUERY_GETCHALLENGE with its re-sends.
		SilentAttempts: [2]int{2, 7},
	})
}

func TestQueryBadReplies(t *testing.T) {
	info := readHex(t, "info_no_edf.hex")
	bad := func(name string, want error, replies ...[]byte) prototest.ReplyFailure {
		return prototest.ReplyFailure{Name: name, Handler: (&fake{Info: replies}).Handle, D: 300 * time.Millisecond, Want: want}
	}
	prototest.ReplyFailures(t, Protocol, nil, protocols.Settings{},
		bad("truncated info", wire.ErrTruncated, info[:30]),
		bad("short challenge", wire.ErrTruncated, []byte{0xFF, 0xFF, 0xFF, 0xFF, steam.TypeChallenge, 1}),
		bad("garbage is skipped", wire.ErrTimeout, []byte("garbage garbage")),
		bad("only garbage", wire.ErrMalformed, bytes.Split(bytes.Repeat([]byte("x,"), 40), []byte(","))...),
		bad("bad fragment", wire.ErrMalformed, []byte{0xFE, 0xFF, 0xFF, 0xFF, 1, 0, 0, 0, 0, 0, 0, 0, 0xFF, 0xFF, 0xFF, 0xFF, 0x49}),
		bad("garbage then info", nil, []byte("junk"), []byte{0xFF, 0xFF, 0xFF, 0xFF, 0x44, 0}, info))
}

// TestQueryFixtures replays real captures (info, players, split rules) through a
// fake server.
func TestQueryFixtures(t *testing.T) {
	read := func(name string) []byte { return prototest.Fixture(t, "a2s", name) }
	f := &fake{
		Info:    one(read("a2s_info_css_zombiemod.bin")),
		Players: one(read("a2s_player_css_zombiemod_41.bin")),
		Rules:   [][]byte{read("a2s_rules_css_zombiemod_split.frag1.bin"), read("a2s_rules_css_zombiemod_split.frag0.bin")},
	}
	res, _ := probe(t, f, protocols.Settings{Players: true, Rules: true})
	if len(res.PlayerList) != 41 || len(res.Rules) == 0 {
		t.Fatalf("%d players, %d rules", len(res.PlayerList), len(res.Rules))
	}
}

func TestOptionsErrors(t *testing.T) {
	prototest.OptionsErrors(t, Protocol, prototest.BadOptions{"encoding: koi8-r": `a2s options: unknown encoding "koi8-r"`})
}

func TestChallengeCache(t *testing.T) {
	t.Parallel()
	a, b := []byte{0x4B, 0xA1, 0xD5, 0x22}, []byte{0x11, 0x22, 0x33, 0x44}
	type step = steamtest.CacheStep
	steamtest.CacheSuite{Protocol: Protocol, Cache: func(q protocols.Querier) *steam.ChallengeCache { return q.(*querier).Challenges },
		Challenge: a, Info: one(readHex(t, "info_no_edf.hex")), Players: one(readHex(t, "player_basic.hex")), Name: "Test Server", Timeout: 2 * time.Second,
		Cases: []steamtest.CacheCase{{Name: "a server dropping a stale challenge is asked the old way",
			Fake: &fake{InfoChallenge: true, DropWrong: true, Challenge: a},
			Steps: []step{{Reqs: 2, Phases: "challenge,info", Cached: true},
				// the stale A2S_INFO, then the plain one and 0x57, then the new challenge
				// (the challenge phase: it came in the first answer of the fallback)
				{Challenge: b, Reqs: 4, Phases: "challenge,info", Hit: true, Cached: true}, {Reqs: 1, Phases: "info", Hit: true, Cached: true}},
			Timeout: 600 * time.Millisecond},
			{Name: "a legacy challenge serves players too", Fake: &fake{Legacy: true, Challenge: a},
				Steps: []step{
					// silence, then the plain A2S_INFO and 0x57 (1 answer), A2S_INFO with it, players with it
					{Reqs: 5, Phases: "challenge,info,players", Cached: true},
					{Reqs: 2, Phases: "info,players", Hit: true, Cached: true}},
				Players: true, Timeout: 600 * time.Millisecond}},
	}.Run(t)
}

func TestChallengeCacheConcurrent(t *testing.T) {
	t.Parallel()
	f := &fake{Info: one(readHex(t, "info_no_edf.hex")), InfoChallenge: true, DropWrong: true, Challenge: []byte{5, 6, 7, 8}}
	q := prototest.MustNew(t, Protocol, protocols.Settings{}).(*querier)
	steamtest.CacheConcurrent(t, q, q.Challenges, f.Start(t), []byte{5, 6, 7, 8})
}

// TestQstat queries the same fake server with quakestat -a2s and with the Querier.
// qstat's numplayers is the wire count, bots included; Result.Players excludes them
// (see Info.Result), so the comparison adds Result.Bots back.
func TestQstat(t *testing.T) {
	for _, tt := range []struct {
		name string
		srv  *fake
	}{
		{"source with info challenge", &fake{Info: one(readHex(t, "info_edf_all.hex")), InfoChallenge: true, Challenge: []byte{7, 7, 7, 7}}},
		{"goldsrc 0x6D", &fake{Info: one(readHex(t, "info_m_mod.hex"))}},
		{"no EDF, password", &fake{Info: one(readHex(t, "info_no_edf.hex"))}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			steamtest.QstatQuery(t, "-a2s", tt.srv.Start(t), Protocol, protocols.Settings{}, 2*time.Second)
		})
	}
}

// BenchmarkQuery is the load benchmark's exchange: A2S_INFO against a loopback fake
// server that wants a challenge. The challenge cache sends it at once on every
// probe but the first: one round trip.
func BenchmarkQuery(b *testing.B) { benchQuery(b, protocols.Settings{}) }

// BenchmarkQueryNoCache is the same with challenge_cache: false: every probe pays
// the S2C_CHALLENGE round trip.
func BenchmarkQueryNoCache(b *testing.B) {
	benchQuery(b, protocols.Settings{Options: prototest.OptionsOf(Options{ChallengeCache: new(bool)})})
}

func benchQuery(b *testing.B, s protocols.Settings) {
	f := &fake{Info: one(readHex(b, "info_edf_all.hex")), InfoChallenge: true, Challenge: []byte{1, 2, 3, 4}, Quiet: true}
	prototest.QueryBench(b, Protocol, s, f.Start(b))
}
