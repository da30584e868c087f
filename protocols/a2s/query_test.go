package a2s

import (
	"bytes"
	"context"
	"errors"
	"net/netip"
	"sync"
	"testing"
	"time"

	"github.com/gameserver-exporter/gameserver_exporter/protocols"
	"github.com/gameserver-exporter/gameserver_exporter/protocols/internal/steam"
	"github.com/gameserver-exporter/gameserver_exporter/protocols/internal/steam/steamtest"
	"github.com/gameserver-exporter/gameserver_exporter/protocols/prototest"
	"github.com/gameserver-exporter/gameserver_exporter/protocols/wire"
)

// fake is a scripted A2S server: it answers A2S_INFO / A2S_PLAYER / A2S_RULES with
// the given datagrams, asking for the challenge first where configured.
type fake struct {
	info, players, rules [][]byte
	infoChallenge        bool // A2S_INFO needs the challenge (servers since 2020)
	noChallenge          bool // A2S_PLAYER / A2S_RULES answered at once
	// legacy: the challenge comes only from A2S_SERVERQUERY_GETCHALLENGE (0x57), and
	// every request without it goes unanswered (Fuel of War's era).
	legacy bool
	// dropWrong: an A2S_INFO carrying a wrong challenge goes unanswered (the plain
	// request still gets S2C_CHALLENGE).
	dropWrong bool
	challenge [4]byte // set with setChallenge once the server runs
	quiet     bool    // do not record requests (benchmarks)

	mu   sync.Mutex
	reqs [][]byte
}

func (f *fake) handle(req []byte) [][]byte {
	f.mu.Lock()
	if !f.quiet {
		f.reqs = append(f.reqs, req)
	}
	challenge := f.challenge
	f.mu.Unlock()
	chal := func() [][]byte {
		return one(append([]byte{0xFF, 0xFF, 0xFF, 0xFF, steam.TypeChallenge}, challenge[:]...))
	}
	if len(req) < 5 || !bytes.HasPrefix(req, []byte{0xFF, 0xFF, 0xFF, 0xFF}) {
		return nil
	}
	has := func(at int) bool { return bytes.Equal(req[at:], challenge[:]) }
	switch req[4] {
	case 0x57:
		if f.legacy && len(req) == 5 {
			return chal()
		}
		return nil
	case 'T':
		if !bytes.HasPrefix(req, steam.InfoRequest) || (f.legacy && !has(len(steam.InfoRequest))) {
			return nil
		}
		if f.infoChallenge && !has(len(steam.InfoRequest)) {
			if f.dropWrong && len(req) > len(steam.InfoRequest) {
				return nil
			}
			return chal()
		}
		return f.info
	case 'U', 'V':
		if len(req) != 9 || (f.legacy && !has(5)) {
			return nil
		}
		if !f.noChallenge && !has(5) {
			return chal()
		}
		if req[4] == 'U' {
			return f.players
		}
		return f.rules
	}
	return nil
}

// setChallenge changes the challenge the server hands out and wants.
func (f *fake) setChallenge(ch [4]byte) {
	f.mu.Lock()
	f.challenge = ch
	f.mu.Unlock()
}

func (f *fake) requests() [][]byte {
	f.mu.Lock()
	defer f.mu.Unlock()
	return append([][]byte(nil), f.reqs...)
}

func (f *fake) start(t testing.TB) netip.AddrPort { return prototest.UDP(t, f.handle) }

func query(t *testing.T, addr netip.AddrPort, s protocols.Settings, timeout time.Duration) (*protocols.Result, *wire.Trace, error) {
	return prototest.QueryNew(t, Protocol, addr, s, timeout)
}

func phases(tr *wire.Trace) []string {
	var out []string
	for _, p := range tr.Phases {
		out = append(out, p.Name)
	}
	return out
}

func one(b []byte) [][]byte { return [][]byte{b} }

func TestQueryInfo(t *testing.T) {
	f := &fake{info: one(readHex(t, "info_edf_all.hex"))}
	res, tr, err := query(t, f.start(t), protocols.Settings{}, 2*time.Second)
	if err != nil {
		t.Fatal(err)
	}
	eq(t, "name", res.Name, " Spaced Name")
	eq(t, "map", res.Map, "pl_badwater")
	eq(t, "players", res.Players, protocols.Known(17))
	eq(t, "max", res.MaxPlayers, protocols.Known(32))
	eq(t, "phases", phases(tr), []string{"info"})
	eq(t, "requests", len(f.requests()), 1)
	eq(t, "no players", res.PlayerList == nil && res.Rules == nil, true)
}

func TestQueryInfoChallenge(t *testing.T) {
	f := &fake{info: one(readHex(t, "info_no_edf.hex")), infoChallenge: true, challenge: [4]byte{0x4B, 0xA1, 0xD5, 0x22}}
	res, tr, err := query(t, f.start(t), protocols.Settings{}, 2*time.Second)
	if err != nil {
		t.Fatal(err)
	}
	eq(t, "name", res.Name, "Test Server")
	eq(t, "phases", phases(tr), []string{"challenge", "info"})
	reqs := f.requests()
	eq(t, "requests", len(reqs), 2)
	eq(t, "plain request", reqs[0], steam.InfoRequest)
	eq(t, "with challenge", reqs[1], append(append([]byte{}, steam.InfoRequest...), 0x4B, 0xA1, 0xD5, 0x22))
}

// A server that hands out its challenge only through A2S_SERVERQUERY_GETCHALLENGE
// and ignores everything without it: after half the time in silence the querier
// asks for one the old way and uses it for info, players and rules.
func TestQueryLegacyChallenge(t *testing.T) {
	ch := [4]byte{0x12, 0x34, 0x56, 0x78}
	f := &fake{info: one(readHex(t, "info_no_edf.hex")), players: one(readHex(t, "player_basic.hex")),
		rules: one(readHex(t, "rules_basic.hex")), legacy: true, challenge: ch}
	res, tr, err := query(t, f.start(t), protocols.Settings{Players: true, Rules: true}, 3*time.Second) // half of it in silence; the rest holds the exchange on a busy machine
	if err != nil {
		t.Fatal(err)
	}
	eq(t, "name", res.Name, "Test Server")
	eq(t, "players", len(res.PlayerList), 3)
	eq(t, "rules", len(res.Rules), 3)
	eq(t, "phase errors", len(res.PhaseErrors), 0)
	eq(t, "phases", phases(tr), []string{"challenge", "info", "players", "rules"})
	var sawGet bool
	for _, r := range f.requests() {
		sawGet = sawGet || bytes.Equal(r, getChallengeRequest)
	}
	eq(t, "sent A2S_SERVERQUERY_GETCHALLENGE", sawGet, true)
	reqs := f.requests()
	eq(t, "rules with the challenge", reqs[len(reqs)-1], []byte{0xFF, 0xFF, 0xFF, 0xFF, 0x56, 0x12, 0x34, 0x56, 0x78})
}

func TestQueryChallengeLoop(t *testing.T) {
	// A server that answers every A2S_INFO with a fresh challenge never converges.
	var mu sync.Mutex
	n := byte(0)
	addr := prototest.UDP(t, func(req []byte) [][]byte {
		mu.Lock()
		defer mu.Unlock()
		n++
		return one([]byte{0xFF, 0xFF, 0xFF, 0xFF, steam.TypeChallenge, n, n, n, n})
	})
	_, _, err := query(t, addr, protocols.Settings{}, 2*time.Second)
	if !errors.Is(err, wire.ErrChallenge) {
		t.Fatalf("err = %v, want ErrChallenge", err)
	}
	mu.Lock()
	defer mu.Unlock()
	eq(t, "requests", n, steam.MaxChallenges)
}

func TestQueryPlayersRules(t *testing.T) {
	info := readHex(t, "info_edf_all.hex")
	frags := steamtest.Frags(t, "split_source")
	f := &fake{
		info: one(info),
		// A late second info reply comes first and must be skipped.
		players: [][]byte{info, readHex(t, "player_basic.hex")},
		// Out of order, with duplicates.
		rules:     [][]byte{frags[2], frags[0], frags[2], frags[3], frags[1], frags[0]},
		challenge: [4]byte{1, 2, 3, 4},
	}
	res, tr, err := query(t, f.start(t), protocols.Settings{Players: true, Rules: true}, 2*time.Second)
	if err != nil {
		t.Fatal(err)
	}
	eq(t, "phase errors", len(res.PhaseErrors), 0)
	eq(t, "phases", phases(tr), []string{"info", "players", "rules"})
	eq(t, "players", len(res.PlayerList), 3)
	eq(t, "player 1", res.PlayerList[1].Name, "Bób ✓")
	eq(t, "rules", len(res.Rules), 40)
	eq(t, "rule 39", res.Rules[39], protocols.KV{Key: "rule_39", Value: "value number 39"})
	reqs := f.requests()
	eq(t, "requests", len(reqs), 5)
	eq(t, "players -1", reqs[1], steam.PlayersRequest)
	eq(t, "players with challenge", reqs[2], []byte{0xFF, 0xFF, 0xFF, 0xFF, 0x55, 1, 2, 3, 4})
	eq(t, "rules with challenge", reqs[4], []byte{0xFF, 0xFF, 0xFF, 0xFF, 0x56, 1, 2, 3, 4})
}

func TestQueryLateSplitOfOtherType(t *testing.T) {
	// While the players reply is being collected, a whole split rules reply (late,
	// from an earlier query) completes: it is skipped without a re-send.
	rules := steamtest.Frags(t, "split_source")
	players := readHex(t, "player_basic.hex")
	frag := func(n byte, p []byte) []byte {
		return append([]byte{0xFE, 0xFF, 0xFF, 0xFF, 0x33, 0, 0, 0, 2, n, 0x20, 0}, p...)
	}
	f := &fake{info: one(readHex(t, "info_no_edf.hex")), noChallenge: true,
		players: append(append([][]byte{frag(0, players[:32])}, rules...), frag(1, players[32:]))}
	res, _, err := query(t, f.start(t), protocols.Settings{Players: true}, 2*time.Second)
	if err != nil || len(res.PhaseErrors) != 0 {
		t.Fatal(err, res.PhaseErrors)
	}
	eq(t, "players", len(res.PlayerList), 3)
	eq(t, "requests", len(f.requests()), 2)
}

func TestQueryNoChallengeNeeded(t *testing.T) {
	// Rule 5: a server may answer the -1 request with the data at once.
	f := &fake{info: one(readHex(t, "info_no_edf.hex")), players: one(readHex(t, "player_empty.hex")), noChallenge: true}
	res, _, err := query(t, f.start(t), protocols.Settings{Players: true}, 2*time.Second)
	if err != nil || len(res.PhaseErrors) != 0 {
		t.Fatal(err, res.PhaseErrors)
	}
	eq(t, "players", res.PlayerList, []protocols.Player{})
	eq(t, "requests", len(f.requests()), 2)
}

func TestQueryTheShipPlayers(t *testing.T) {
	f := &fake{info: one(readHex(t, "info_theship.hex")), players: one(readHex(t, "player_theship.hex"))}
	res, _, err := query(t, f.start(t), protocols.Settings{Players: true}, 2*time.Second)
	if err != nil || len(res.PhaseErrors) != 0 {
		t.Fatal(err, res.PhaseErrors)
	}
	eq(t, "players", len(res.PlayerList), 2)
	eq(t, "bot duration", res.PlayerList[0].DurationKnown, false)
}

func TestQueryInfoSplit(t *testing.T) {
	// Query proxies split even A2S_INFO (GameQ #688).
	info := readHex(t, "info_edf_all.hex")
	frag := func(n byte, p []byte) []byte {
		return append([]byte{0xFE, 0xFF, 0xFF, 0xFF, 5, 0, 0, 0, 2, n, 0x50, 0}, p...)
	}
	f := &fake{info: [][]byte{frag(1, info[80:]), frag(0, info[:80])}}
	res, _, err := query(t, f.start(t), protocols.Settings{}, 2*time.Second)
	if err != nil {
		t.Fatal(err)
	}
	eq(t, "name", res.Name, " Spaced Name")
}

func TestQueryCompressedRules(t *testing.T) {
	frags := steamtest.Frags(t, "split_bzip2")
	f := &fake{info: one(readHex(t, "info_no_edf.hex")), rules: [][]byte{frags[1], frags[0]}}
	res, _, err := query(t, f.start(t), protocols.Settings{Rules: true}, 2*time.Second)
	if err != nil || len(res.PhaseErrors) != 0 {
		t.Fatal(err, res.PhaseErrors)
	}
	eq(t, "rules", len(res.Rules), 40)
}

func TestQueryBadFragment(t *testing.T) {
	f := &fake{info: one(readHex(t, "info_no_edf.hex")), rules: steamtest.Frags(t, "split_bzip2_badcrc")}
	res, _, err := query(t, f.start(t), protocols.Settings{Rules: true}, 2*time.Second)
	if err != nil {
		t.Fatal(err)
	}
	if len(res.PhaseErrors) != 1 || res.PhaseErrors[0].Phase != "rules" || !errors.Is(res.PhaseErrors[0].Err, wire.ErrMalformed) {
		t.Fatalf("phase errors %v", res.PhaseErrors)
	}
}

func TestQueryMissingFragment(t *testing.T) {
	t.Parallel()
	frags := steamtest.Frags(t, "split_source")
	f := &fake{info: one(readHex(t, "info_no_edf.hex")), rules: [][]byte{frags[0], frags[1], frags[3]}}
	for _, retries := range []int{0, 1} {
		res, _, err := query(t, f.start(t), protocols.Settings{Rules: true, Retries: retries}, 300*time.Millisecond)
		if err != nil {
			t.Fatal(err)
		}
		if len(res.PhaseErrors) != 1 || !errors.Is(res.PhaseErrors[0].Err, wire.ErrTimeout) {
			t.Fatalf("retries %d: phase errors %v", retries, res.PhaseErrors)
		}
		eq(t, "info kept", res.Name, "Test Server")
	}
}

func TestQueryFragmentRecoveredByResend(t *testing.T) {
	t.Parallel()
	// The first answer loses fragment 2; the answer to the re-send is complete.
	frags := steamtest.Frags(t, "split_source")
	var mu sync.Mutex
	rulesAsked := 0
	info := readHex(t, "info_no_edf.hex")
	addr := prototest.UDP(t, func(req []byte) [][]byte {
		switch req[4] {
		case 'T':
			return one(info)
		case 'V':
			mu.Lock()
			defer mu.Unlock()
			if rulesAsked++; rulesAsked == 1 {
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
	f := &fake{info: one(readHex(t, "info_no_edf.hex")), infoChallenge: true, challenge: [4]byte{7, 7, 7, 7}}
	prototest.QuerierContract(t, prototest.Contract{
		Protocol: Protocol, Name: "a2s", DefaultPort: 27015, Transport: "udp",
		Answer: f.handle, WantName: "Test Server", RetryAttempts: 3,
		// A silent server gets A2S_INFO and its 2 re-sends, then the fallback: one
		// more A2S_INFO, and A2S_SERVERQUERY_GETCHALLENGE with its re-sends.
		SilentAttempts: [2]int{2, 7},
	})
}

func TestQueryPlayersTimeout(t *testing.T) {
	t.Parallel()
	// CS:GO never answers A2S_RULES: the server is still up.
	f := &fake{info: one(readHex(t, "info_no_edf.hex")), players: one(readHex(t, "player_basic.hex"))}
	res, _, err := query(t, f.start(t), protocols.Settings{Players: true, Rules: true}, 300*time.Millisecond)
	if err != nil {
		t.Fatal(err)
	}
	eq(t, "players", len(res.PlayerList), 3)
	if len(res.PhaseErrors) != 1 || res.PhaseErrors[0].Phase != "rules" || !errors.Is(res.PhaseErrors[0].Err, wire.ErrTimeout) {
		t.Fatalf("phase errors %v", res.PhaseErrors)
	}
}

func TestQueryDoubleInfo(t *testing.T) {
	t.Parallel()
	detailed := readHex(t, "info_m_mod.hex")
	source := readHex(t, "info_edf_all.hex")
	for _, tt := range []struct {
		name    string
		replies [][]byte
		want    string
	}{
		{"0x6D then 0x49", [][]byte{detailed, source}, " Spaced Name"},
		{"0x49 then 0x6D", [][]byte{source, detailed}, " Spaced Name"},
		{"0x6D alone", [][]byte{detailed}, "Old Server"},
		{"0x6D then a broken 0x49", [][]byte{detailed, source[:20]}, "Old Server"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			f := &fake{info: tt.replies, players: one(readHex(t, "player_empty.hex"))}
			res, _, err := query(t, f.start(t), protocols.Settings{Players: true}, 2*time.Second)
			if err != nil || len(res.PhaseErrors) != 0 {
				t.Fatal(err, res.PhaseErrors)
			}
			eq(t, "name", res.Name, tt.want)
		})
	}
}

func TestQueryBadReplies(t *testing.T) {
	t.Parallel()
	info := readHex(t, "info_no_edf.hex")
	for _, tt := range []struct {
		name    string
		replies [][]byte
		err     error
	}{
		{"truncated info", one(info[:30]), wire.ErrTruncated},
		{"short challenge", one([]byte{0xFF, 0xFF, 0xFF, 0xFF, steam.TypeChallenge, 1}), wire.ErrTruncated},
		{"garbage is skipped", one([]byte("garbage garbage")), wire.ErrTimeout},
		{"only garbage", bytes.Split(bytes.Repeat([]byte("x,"), 40), []byte(",")), wire.ErrMalformed},
		{"bad fragment", one([]byte{0xFE, 0xFF, 0xFF, 0xFF, 1, 0, 0, 0, 0, 0, 0, 0, 0xFF, 0xFF, 0xFF, 0xFF, 0x49}), wire.ErrMalformed},
		{"garbage then info", [][]byte{[]byte("junk"), {0xFF, 0xFF, 0xFF, 0xFF, 0x44, 0}, info}, nil},
	} {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			f := &fake{info: tt.replies}
			_, _, err := query(t, f.start(t), protocols.Settings{}, 300*time.Millisecond)
			if !errors.Is(err, tt.err) {
				t.Fatalf("err = %v, want %v", err, tt.err)
			}
		})
	}
}

func TestQueryConcurrent(t *testing.T) {
	f := &fake{info: one(readHex(t, "info_edf_all.hex")), players: one(readHex(t, "player_basic.hex")), infoChallenge: true, challenge: [4]byte{9, 9, 9, 9}}
	addr := f.start(t)
	q, _ := newQuerier(protocols.Settings{Players: true})
	var wg sync.WaitGroup
	for range 16 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
			defer cancel()
			res, err := q.Query(ctx, protocols.At(addr), nil)
			if err != nil || len(res.PlayerList) != 3 {
				t.Errorf("%v %v", err, res)
			}
		}()
	}
	wg.Wait()
}

// TestQueryFixtures replays real captures (info, players, split rules) through a
// fake server.
func TestQueryFixtures(t *testing.T) {
	read := func(name string) []byte { return prototest.Fixture(t, "a2s", name) }
	f := &fake{
		info:    one(read("a2s_info_css_zombiemod.bin")),
		players: one(read("a2s_player_css_zombiemod_41.bin")),
		rules:   [][]byte{read("a2s_rules_css_zombiemod_split.frag1.bin"), read("a2s_rules_css_zombiemod_split.frag0.bin")},
	}
	res, _, err := query(t, f.start(t), protocols.Settings{Players: true, Rules: true}, 2*time.Second)
	if err != nil || len(res.PhaseErrors) != 0 {
		t.Fatal(err, res.PhaseErrors)
	}
	eq(t, "players", len(res.PlayerList), 41)
	if len(res.Rules) == 0 {
		t.Fatal("no rules")
	}
}

func TestOptionsErrors(t *testing.T) {
	prototest.OptionsErrors(t, Protocol, prototest.BadOptions{"encoding: koi8-r": `a2s options: unknown encoding "koi8-r"`})
}
