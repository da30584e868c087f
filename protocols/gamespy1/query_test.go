package gamespy1

import (
	"errors"
	"fmt"

	"strings"
	"testing"
	"time"

	"github.com/gameserver-exporter/gameserver_exporter/protocols"
	"github.com/gameserver-exporter/gameserver_exporter/protocols/internal/gamespy/gamespytest"
	"github.com/gameserver-exporter/gameserver_exporter/protocols/prototest"
	"github.com/gameserver-exporter/gameserver_exporter/protocols/wire"
)

func newQuerier(t testing.TB, s protocols.Settings, opts *Options) protocols.Querier {
	t.Helper()
	if opts != nil {
		s.Options = func(v any) error { *v.(*Options) = *opts; return nil }
	}
	q, err := build(s)
	if err != nil {
		t.Fatal(err)
	}
	return q
}

// serve answers `\status\` with the given datagrams in order.
func serve(t testing.TB, parts ...[]byte) func([]byte) [][]byte {
	return func(req []byte) [][]byte {
		if string(req) != `\status\` {
			t.Errorf("request %q", req)
			return nil
		}
		return parts
	}
}

// Probes that must end in a timeout get a short deadline; the others a long one, so
// that a loaded test machine cannot turn them into timeouts.
const (
	deadline = 300 * time.Millisecond
	long     = 3 * time.Second
)

func query(t *testing.T, d time.Duration, q protocols.Querier, h prototest.Handler) (*protocols.Result, *wire.Trace, error) {
	return prototest.QueryWithin(t, q, prototest.UDP(t, h), d)
}

func TestQueryMultiPacket(t *testing.T) {
	t.Parallel()
	parts := readParts(t, "testdata", "ut_shuffled") // arrive 3, 1, 2
	q := newQuerier(t, protocols.Settings{Players: true, Rules: true}, nil)
	// Out of order, with a duplicate, a stray of another reply and a non-GameSpy datagram.
	res, tr, err := query(t, long, q, serve(t, parts[0], []byte(`\hostname\stale\queryid\76.1`), parts[1], parts[0], []byte("junk"), parts[2]))
	if err != nil {
		t.Fatal(err)
	}
	if res.Name != "Test «Server»" || res.Map != "DM-Deck16][" || res.Players != protocols.Known(3) || res.MaxPlayers != protocols.Known(16) {
		t.Errorf("result %+v", res)
	}
	if len(res.PlayerList) != 3 || res.PlayerList[2].Name != "Zoé" || len(res.Rules) == 0 || len(res.PhaseErrors) != 0 {
		t.Errorf("players %+v rules %d phase errors %v", res.PlayerList, len(res.Rules), res.PhaseErrors)
	}
	ignored := prototest.Ignored(tr)
	if ignored != 3 {
		t.Errorf("%d datagrams noted as ignored, want 3", ignored)
	}
	if len(tr.Phases) != 1 || tr.Phases[0].Name != "info" || tr.Phases[0].Err != nil {
		t.Errorf("phases %+v", tr.Phases)
	}
}

func TestQuerySettings(t *testing.T) {
	t.Parallel()
	parts := readParts(t, "testdata", "bf_final_first")
	q := newQuerier(t, protocols.Settings{}, &Options{Request: requestStatus})
	res, _, err := query(t, long, q, serve(t, parts...))
	if err != nil {
		t.Fatal(err)
	}
	if res.PlayerList != nil || res.Rules != nil || len(res.Info) == 0 {
		t.Errorf("players %v rules %v info %d without asking", res.PlayerList, res.Rules, len(res.Info))
	}
}

func TestQueryMissingPacket(t *testing.T) {
	t.Parallel()
	parts := readParts(t, "testdata", "missing_middle")
	q := newQuerier(t, protocols.Settings{Players: true, Rules: true}, nil)
	res, _, err := query(t, long, q, serve(t, parts...))
	if err != nil {
		t.Fatal(err)
	}
	if res.Name != "Lossy" || res.Players != protocols.Known(2) || len(res.PlayerList) != 2 {
		t.Errorf("result %+v", res)
	}
	if len(res.PhaseErrors) != 2 || !errors.Is(res.PhaseErrors[0].Err, wire.ErrTruncated) {
		t.Errorf("phase errors %v", res.PhaseErrors)
	}
}

// Without the info packet there is nothing to report.
func TestQueryMissingInfo(t *testing.T) {
	t.Parallel()
	parts := readParts(t, "testdata", "missing_middle")
	q := newQuerier(t, protocols.Settings{Players: true}, nil)
	_, _, err := query(t, long, q, serve(t, parts[1]))
	if !errors.Is(err, wire.ErrTruncated) {
		t.Fatalf("error %v", err)
	}
}

func TestQueryNoFinal(t *testing.T) {
	t.Parallel()
	parts := readParts(t, "testdata", "no_final")
	q := newQuerier(t, protocols.Settings{Players: true}, nil)
	res, tr, err := query(t, long, q, serve(t, parts...))
	if err != nil {
		t.Fatal(err)
	}
	if res.Name != "NoFinal" || len(res.PlayerList) != 1 || len(res.PhaseErrors) != 0 {
		t.Errorf("result %+v", res)
	}
	if len(tr.Entries) == 0 {
		t.Error("missing \\final\\ not logged")
	}
}

func TestQueryEndlessStream(t *testing.T) {
	t.Parallel()
	var stream [][]byte
	for i := 1; i <= 40; i++ {
		stream = append(stream, fmt.Appendf(nil, `\k%d\v\queryid\9.%d`, i, i))
	}
	q := newQuerier(t, protocols.Settings{}, nil)
	if _, _, err := query(t, long, q, serve(t, stream...)); !errors.Is(err, wire.ErrTooLarge) {
		t.Fatalf("error %v", err)
	}
	var dups [][]byte
	for range 100 {
		dups = append(dups, []byte(`\hostname\x\queryid\9.1`))
	}
	if _, _, err := query(t, long, q, serve(t, dups...)); !errors.Is(err, wire.ErrTooLarge) {
		t.Fatalf("duplicates: error %v", err)
	}
}

func TestQueryFailures(t *testing.T) {
	t.Parallel()
	gamespytest.Failures(t, Protocol, protocols.Settings{Retries: 1}, []gamespytest.Failure{
		{Name: "garbage", D: deadline, H: func([]byte) [][]byte { return [][]byte{[]byte("\xff\xff\xff\xffgarbage")} }, Want: wire.ErrMalformed},
		{Name: "lying number", D: long, H: func([]byte) [][]byte { return [][]byte{[]byte(`\hostname\x\queryid\1.1000`)} }, Want: wire.ErrTooLarge},
		{Name: "empty", D: deadline, H: func([]byte) [][]byte { return [][]byte{{}} }, Want: wire.ErrMalformed},
	})
}

// Silence and a closed port are failures too: the contract checks them.
func TestQuerierContract(t *testing.T) {
	t.Parallel()
	prototest.QuerierContract(t, prototest.Contract{
		Protocol: Protocol, Name: "gamespy1", DefaultPort: 7778, Transport: "udp",
		Answer:   serve(t, []byte(`\hostname\Second\numplayers\1\maxplayers\2\final\`)),
		WantName: "Second", RetryDeadline: 900 * time.Millisecond,
	})
}

// separateServer answers each section with its own queryid and sends a late copy of
// the info reply before the players reply.
func separateServer(t *testing.T, answerPlayers bool) prototest.Handler {
	info := []byte(`\gamename\ut\hostname\Sep\mapname\DM-A\numplayers\2\maxplayers\8\queryid\11.1\final\`)
	return func(req []byte) [][]byte {
		switch string(req) {
		case `\basic\\info\`:
			return [][]byte{info}
		case `\players\`:
			if !answerPlayers {
				return nil
			}
			return [][]byte{info, []byte(`\player_1\B\frags_1\2\queryid\12.2\final\`), []byte(`\player_0\A\frags_0\1\queryid\12.1`)}
		case `\rules\`:
			return [][]byte{[]byte(`\timelimit\15\password\True\queryid\13.1\final\`)}
		}
		t.Errorf("request %q", req)
		return nil
	}
}

func TestQuerySeparate(t *testing.T) {
	t.Parallel()
	q := newQuerier(t, protocols.Settings{Players: true, Rules: true}, &Options{Request: requestSeparate})
	res, tr, err := query(t, long, q, separateServer(t, true))
	if err != nil {
		t.Fatal(err)
	}
	if res.Name != "Sep" || res.Game != "ut" || len(res.PlayerList) != 2 || res.PlayerList[0].Name != "A" || res.PlayerList[1].Name != "B" {
		t.Errorf("result %+v", res)
	}
	if len(res.Rules) != 2 || res.Rules[0] != (protocols.KV{Key: "timelimit", Value: "15"}) || len(res.PhaseErrors) != 0 {
		t.Errorf("rules %v phase errors %v", res.Rules, res.PhaseErrors)
	}
	var names []string
	for _, p := range tr.Phases {
		names = append(names, p.Name)
	}
	if strings.Join(names, ",") != "info,players,rules" {
		t.Errorf("phases %v", names)
	}
}

func TestQuerySeparatePlayersLost(t *testing.T) {
	t.Parallel()
	q := newQuerier(t, protocols.Settings{Players: true}, &Options{Request: requestSeparate})
	res, _, err := query(t, time.Second, q, separateServer(t, false))
	if err != nil {
		t.Fatal(err)
	}
	if res.Name != "Sep" || len(res.PhaseErrors) != 1 || res.PhaseErrors[0].Phase != "players" ||
		!errors.Is(res.PhaseErrors[0].Err, wire.ErrTimeout) {
		t.Errorf("result %+v", res)
	}
}

func TestQueryXServerQuery(t *testing.T) {
	t.Parallel()
	q := newQuerier(t, protocols.Settings{}, &Options{Request: requestXServerQuery})
	res, _, err := query(t, long, q, func(req []byte) [][]byte {
		if string(req) != `\status\xserverquery` {
			return nil
		}
		return [][]byte{[]byte(`\hostname\X\final\`)}
	})
	if err != nil || res.Name != "X" {
		t.Fatalf("%v %+v", err, res)
	}
}

func TestNewOptions(t *testing.T) {
	if _, err := build(protocols.Settings{}); err != nil {
		t.Fatal(err)
	}
	_, err := build(protocols.Settings{Options: func(v any) error { v.(*Options).Request = "bogus"; return nil }})
	if err == nil || !strings.Contains(err.Error(), "request") {
		t.Fatalf("error %v", err)
	}
	_, err = build(protocols.Settings{Options: func(any) error { return errors.New("field nope not found") }})
	if err == nil {
		t.Fatal("options error swallowed")
	}
}

// TestQueryEncoding: a Cyrillic server's Windows-1251 names read as such with
// `encoding: windows-1251`, as Windows-1252 without it.
func TestQueryEncoding(t *testing.T) {
	t.Parallel()
	cp1251 := string([]byte{0xCF, 0xF0, 0xE8, 0xE2, 0xE5, 0xF2}) // "Привет"
	d := []byte(`\hostname\` + cp1251 + `\gamename\ut\numplayers\1\maxplayers\8\player_0\` + cp1251 + `\final\\queryid\1.1`)
	for enc, want := range map[string]string{"": "Ïðèâåò", "windows-1251": "Привет"} {
		q := newQuerier(t, protocols.Settings{Players: true}, &Options{Encoding: enc})
		res, _, err := query(t, long, q, serve(t, d))
		if err != nil {
			t.Fatal(err)
		}
		if res.Name != want || len(res.PlayerList) != 1 || res.PlayerList[0].Name != want {
			t.Errorf("encoding %q: name %q players %+v, want %q", enc, res.Name, res.PlayerList, want)
		}
	}
	if _, err := build(protocols.Settings{Options: prototest.OptionsOf(Options{Encoding: "koi8-r"})}); err == nil {
		t.Error("koi8-r accepted")
	}
}
