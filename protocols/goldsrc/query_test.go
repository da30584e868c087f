package goldsrc

import (
	"errors"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/gameserver-exporter/gameserver_exporter/protocols"
	"github.com/gameserver-exporter/gameserver_exporter/protocols/internal/steam/steamtest"
	"github.com/gameserver-exporter/gameserver_exporter/protocols/prototest"
	"github.com/gameserver-exporter/gameserver_exporter/protocols/wire"
)

var all = protocols.Settings{Players: true, Rules: true}

// phases lists the trace's phase names with their outcome.
func phases(tr *wire.Trace) string {
	var out []string
	for _, p := range tr.Phases {
		s := p.Name
		if p.Err != nil {
			s += "!"
		}
		out = append(out, s)
	}
	return strings.Join(out, ",")
}

func TestQueryA2SDialect(t *testing.T) {
	// A Steam-era HLDS: 0x6D then 0x49 for one A2S_INFO, challenge on players and
	// rules, rules split in GoldSrc fragments sent backwards and duplicated.
	frags := steamtest.Frags(t, "rules_split")
	f := &fake{
		a2sInfo: [][]byte{readHex(t, "info_m_mod.hex"), readHex(t, "info_I_goldsrc.hex")},
		players: one(readHex(t, "players_D.hex")),
		rules:   [][]byte{frags[2], frags[1], frags[1], frags[0], frags[2]},
	}
	res, tr, err := query(t, f.start(t), all, answerDeadline)
	if err != nil {
		t.Fatal(err)
	}
	// The 0x49 wins (it has the version), the 0x6D's mod block stays in Info.
	eq(t, "name", res.Name, "CS 1.6 Server")
	eq(t, "version", res.Version, "1.1.2.7/Stdio")
	eq(t, "players", res.Players, protocols.Known(8))
	for k, want := range map[string]string{"protocol": "48", "mod": "1", "mod_link": "http://example.org/", "address": "192.168.0.10:27015"} {
		if got, _ := infoValue(res.Info, k); got != want {
			t.Errorf("Info %s = %q, want %q", k, got, want)
		}
	}
	checkKV(t, res.Info)
	eq(t, "player count", len(res.PlayerList), 3)
	eq(t, "player 1", res.PlayerList[1].Name, "Jörg")
	eq(t, "rules", len(res.Rules), 3)
	eq(t, "phase errors", len(res.PhaseErrors), 0)
	eq(t, "phases", phases(tr), "info,players,rules")
	if got := f.requests(); !slices.Equal(got, []string{"A2S_INFO", "A2S_PLAYER", "A2S_PLAYER", "A2S_RULES", "A2S_RULES"}) {
		t.Errorf("requests %v", got)
	}
}

func TestQueryTextDialect(t *testing.T) {
	t.Parallel()
	// A WON-era server: A2S_INFO is ignored, the text words answer.
	f := &fake{
		details:     one(readHex(t, "info_m_mod.hex")),
		textPlayers: one(readHex(t, "players_D.hex")),
		textRules:   steamtest.Frags(t, "rules_split"),
	}
	res, tr, err := query(t, f.start(t), all, textDeadline)
	if err != nil {
		t.Fatal(err)
	}
	eq(t, "name", res.Name, "Sven été")
	eq(t, "players", res.Players, protocols.Known(4))
	eq(t, "bots", res.Bots, protocols.Known(2))
	eq(t, "password", res.Password, protocols.FlagTrue)
	eq(t, "mod_size", must(infoValue(res.Info, "mod_size")), "123456")
	eq(t, "player count", len(res.PlayerList), 3)
	eq(t, "rules", len(res.Rules), 3)
	eq(t, "phases", phases(tr), "info,players,rules")
	// The 0x6D came after "details" was sent: either dialect may have answered, so
	// players and rules go out both ways; the text words answer here.
	// (The A2S requests may still be in flight when the query returns: not compared.)
	if got := f.requests(); len(got) < 5 || !slices.Equal(got[:3], []string{"A2S_INFO", "details", "players"}) || !slices.Contains(got, "rules") {
		t.Errorf("requests %v", got)
	}
}

func must(v string, _ bool) string { return v }

func TestQueryFallbacks(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name  string
		srv   *fake
		d     time.Duration
		want  string // Result.Name
		sent  []string
		check func(t *testing.T, res *protocols.Result)
	}{
		{"info C", &fake{info: one(readHex(t, "info_C.hex"))}, lateDeadline, "Old WON Server",
			[]string{"A2S_INFO", "details", "info"}, func(t *testing.T, res *protocols.Result) {
				eq(t, "players", res.Players, protocols.Known(5))
				eq(t, "bots", res.Bots, protocols.Count{})
			}},
		{"infostring", &fake{infoString: one(readHex(t, "infostring.hex"))}, lateDeadline, "My CS Server",
			[]string{"A2S_INFO", "details", "info", "infostring"}, func(t *testing.T, res *protocols.Result) {
				eq(t, "players", res.Players, protocols.Known(5))
				eq(t, "max", res.MaxPlayers, protocols.Known(20))
			}},
		{"A2S answers at once", &fake{a2sInfo: one(readHex(t, "info_I_goldsrc.hex")), details: one(readHex(t, "info_m_mod.hex"))}, answerDeadline, "CS 1.6 Server",
			[]string{"A2S_INFO"}, nil},
		{"A2S with challenge", &fake{a2sInfo: one(readHex(t, "info_I_goldsrc.hex")), infoChallenge: true}, answerDeadline, "CS 1.6 Server",
			[]string{"A2S_INFO", "A2S_INFO"}, nil},
	}
	jobs := make([]job, len(cases))
	for i, c := range cases {
		jobs[i] = job{c.srv.start(t), protocols.Settings{}, c.d}
	}
	outs := queryAll(jobs)
	for i, tt := range cases {
		t.Run(tt.name, func(t *testing.T) {
			res, err := outs[i].res, outs[i].err
			if err != nil {
				t.Fatal(err)
			}
			eq(t, "name", res.Name, tt.want)
			if got := tt.srv.requests(); !slices.Equal(got, tt.sent) {
				t.Errorf("requests %v, want %v", got, tt.sent)
			}
			if tt.check != nil {
				tt.check(t, res)
			}
		})
	}
}

func TestQueryChallengePhase(t *testing.T) {
	f := &fake{a2sInfo: one(readHex(t, "info_I_goldsrc.hex")), infoChallenge: true}
	_, tr, err := query(t, f.start(t), protocols.Settings{}, answerDeadline)
	if err != nil {
		t.Fatal(err)
	}
	eq(t, "phases", phases(tr), "challenge,info")
}

func TestQueryBothDialects(t *testing.T) {
	t.Parallel()
	// The 0x6D arrives only after "details" was sent, so which dialect answered is
	// unknown: players goes out both ways and the first answer (A2S here) wins.
	f := &fake{
		details: one(readHex(t, "info_m_mod.hex")),
		players: one(readHex(t, "players_D.hex")),
	}
	res, _, err := query(t, f.start(t), protocols.Settings{Players: true}, textDeadline)
	if err != nil {
		t.Fatal(err)
	}
	eq(t, "players", len(res.PlayerList), 3)
	eq(t, "text players sent", f.count("players"), 1)
	eq(t, "A2S_PLAYER sent", f.count("A2S_PLAYER"), 2)
}

func TestQueryHLTV(t *testing.T) {
	t.Parallel()
	// An HLTV proxy with nobody on it sends no players reply: none is awaited.
	f := &fake{a2sInfo: one(readHex(t, "info_m_hltv.hex"))}
	res, tr, err := query(t, f.start(t), protocols.Settings{Players: true}, answerDeadline)
	if err != nil {
		t.Fatal(err)
	}
	if res.PlayerList == nil || len(res.PlayerList) != 0 || len(res.PhaseErrors) != 0 {
		t.Errorf("players %v, phase errors %v", res.PlayerList, res.PhaseErrors)
	}
	eq(t, "players sent", f.count("A2S_PLAYER")+f.count("players"), 0)
	eq(t, "phases", phases(tr), "info,players")

	// Over the text words, an empty datagram is an empty list.
	f = &fake{details: one(readHex(t, "info_C.hex")), info: one(readHex(t, "info_C.hex")), textPlayers: one([]byte{})}
	res, _, err = query(t, f.start(t), protocols.Settings{Players: true}, textDeadline)
	if err != nil {
		t.Fatal(err)
	}
	if res.PlayerList == nil || len(res.PlayerList) != 0 || len(res.PhaseErrors) != 0 {
		t.Errorf("players %v, phase errors %v", res.PlayerList, res.PhaseErrors)
	}
}

func TestQueryRetries(t *testing.T) {
	t.Parallel()
	f := &fake{a2sInfo: one(readHex(t, "info_I_goldsrc.hex")), players: one(readHex(t, "players_D.hex")), dropFirst: true}
	res, _, err := query(t, f.start(t), protocols.Settings{Players: true, Retries: 2}, 1500*time.Millisecond)
	if err != nil {
		t.Fatal(err)
	}
	eq(t, "players", len(res.PlayerList), 3)
	eq(t, "A2S_INFO sent", f.count("A2S_INFO"), 2)
}

func TestQueryPhaseErrors(t *testing.T) {
	t.Parallel()
	// Info answers; players and rules stay silent: a result with phase errors.
	f := &fake{a2sInfo: one(readHex(t, "info_I_goldsrc.hex"))}
	start := time.Now()
	res, tr, err := query(t, f.start(t), all, silentDeadline)
	if err != nil {
		t.Fatal(err)
	}
	if d := time.Since(start); d > silentDeadline+slack+prototest.LagSince(start) {
		t.Errorf("took %v with a %v deadline", d, silentDeadline)
	}
	eq(t, "phase errors", len(res.PhaseErrors), 2)
	for _, pe := range res.PhaseErrors {
		if !errors.Is(pe.Err, wire.ErrTimeout) {
			t.Errorf("%s: %v", pe.Phase, pe.Err)
		}
	}
	eq(t, "phases", phases(tr), "info,players!,rules!")

	// A players reply that does not decode is a phase error too.
	f = &fake{a2sInfo: one(readHex(t, "info_I_goldsrc.hex")), players: one([]byte("\xFF\xFF\xFF\xFF\x44"))}
	res, _, err = query(t, f.start(t), protocols.Settings{Players: true}, answerDeadline)
	if err != nil || len(res.PhaseErrors) != 1 || !errors.Is(res.PhaseErrors[0].Err, wire.ErrTruncated) || res.PlayerList != nil {
		t.Errorf("err %v, phase errors %v, players %v", err, res.PhaseErrors, res.PlayerList)
	}
}

func TestQueryFailures(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name string
		srv  *fake
		want error
		d    time.Duration
	}{
		{"truncated 0x6D", &fake{a2sInfo: one(readHex(t, "info_m_mod.hex")[:40])}, wire.ErrTruncated, answerDeadline},
		{"truncated C", &fake{info: one(readHex(t, "info_C_cut.hex"))}, wire.ErrTruncated, lateDeadline},
		{"garbage only", &fake{a2sInfo: [][]byte{[]byte("hello"), {0xFF, 0xFF}, []byte("\xFF\xFF\xFF\xFF\x44\x00")}},
			wire.ErrTimeout, silentDeadline},
		{"challenge forever", &fake{a2sInfo: one(challengeReply())}, wire.ErrChallenge, answerDeadline},
		// Fragment 1 of 2 never comes: a timeout by the deadline, no hang.
		{"split info missing a fragment", &fake{a2sInfo: splitGold(readHex(t, "info_m_mod.hex"), 2)[:1]}, wire.ErrTimeout, silentDeadline},
		{"split players as info", &fake{a2sInfo: steamtest.Frags(t, "players_split")}, wire.ErrTimeout, silentDeadline},
	}
	jobs := make([]job, len(cases))
	for i, c := range cases {
		jobs[i] = job{c.srv.start(t), all, c.d}
	}
	outs := queryAll(jobs)
	for i, tt := range cases {
		t.Run(tt.name, func(t *testing.T) {
			o := outs[i]
			if !errors.Is(o.err, tt.want) || o.res != nil {
				t.Fatalf("res %v, err %v; want %v", o.res, o.err, tt.want)
			}
			if o.took > tt.d+slack {
				t.Errorf("took %v with a %v deadline", o.took, tt.d)
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

func TestQuerySplitInfo(t *testing.T) {
	// Any reply may be split: an info reply in 3 fragments, out of order, duplicated.
	fr := splitGold(readHex(t, "info_I_goldsrc.hex"), 3)
	f := &fake{a2sInfo: [][]byte{fr[1], fr[2], fr[1], fr[0]}}
	res, _, err := query(t, f.start(t), protocols.Settings{}, answerDeadline)
	if err != nil {
		t.Fatal(err)
	}
	eq(t, "name", res.Name, "CS 1.6 Server")
}

func TestQueryStrayPackets(t *testing.T) {
	// Garbage and replies of other types before the answer are skipped.
	f := &fake{a2sInfo: [][]byte{[]byte("junk"), readHex(t, "players_D.hex"), readHex(t, "info_C.hex")}}
	res, tr, err := query(t, f.start(t), protocols.Settings{}, answerDeadline)
	if err != nil {
		t.Fatal(err)
	}
	eq(t, "name", res.Name, "Old WON Server")
	ignored := prototest.Ignored(tr)
	eq(t, "ignored packets", ignored, 2)
}

func TestSilenceSendsEveryQuery(t *testing.T) {
	t.Parallel()
	// A silent server gets every info query once, and the probe ends by its deadline.
	f := &fake{}
	start := time.Now()
	_, tr, err := query(t, f.start(t), protocols.Settings{Players: true}, silentDeadline)
	if !errors.Is(err, wire.ErrTimeout) {
		t.Fatalf("err %v", err)
	}
	if d := time.Since(start); d > silentDeadline+slack+prototest.LagSince(start) {
		t.Errorf("took %v with a %v deadline", d, silentDeadline)
	}
	if got := f.requests(); !slices.Equal(got, []string{"A2S_INFO", "details", "info", "infostring"}) {
		t.Errorf("requests %v", got)
	}
	eq(t, "phases", phases(tr), "info!")
}

// The lost A2S_INFO reply is made up for within the first info stage. A silent
// server gets each of the 4 info queries, each up to 3 times, in one "info" phase.
func TestQuerierContract(t *testing.T) {
	t.Parallel()
	f := &fake{a2sInfo: one(readHex(t, "info_I_goldsrc.hex"))}
	prototest.QuerierContract(t, prototest.Contract{
		Protocol: Protocol, Name: "goldsrc", DefaultPort: 27015, Transport: "udp",
		Answer: f.handle, WantName: "CS 1.6 Server", SilentAttempts: [2]int{4, 12},
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
