// Package gamespytest holds what the tests of the GameSpy family (gamespy1 to
// gamespy4) read and check alike: GameQ's captures with their expected values,
// the fuzz seeds and what every decoder promises of any input.
package gamespytest

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/gameserver-exporter/gameserver_exporter/protocols"
	"github.com/gameserver-exporter/gameserver_exporter/protocols/prototest"
	"github.com/gameserver-exporter/gameserver_exporter/protocols/wire"
)

// GameQ is one capture set of shared/fixtures/<proto>: the datagrams of one
// server's reply and the values GameQ decoded from them.
type GameQ struct {
	Name     string   // the .expected.json's name without the suffix
	Fixtures []string `json:"fixtures"`
	Want     map[string]any
	Parts    [][]byte // the Fixtures' bytes, in the file's order
}

// GameQs reads every .expected.json of shared/fixtures/<proto> whose name
// starts with none of skip, with its datagrams, in name order; it skips the
// test without the shared tree and fails it when there is none.
func GameQs(t testing.TB, proto string, skip ...string) []GameQ {
	t.Helper()
	dir := prototest.FixtureDir(t, proto)
	files, _ := filepath.Glob(filepath.Join(dir, "*.expected.json"))
	sort.Strings(files)
	var out []GameQ
	for _, f := range files {
		name := strings.TrimSuffix(filepath.Base(f), ".expected.json")
		if slices.ContainsFunc(skip, func(p string) bool { return strings.HasPrefix(name, p) }) {
			continue
		}
		out = append(out, ReadGameQ(t, proto, name))
	}
	if len(out) == 0 {
		t.Fatalf("no %s fixtures", proto)
	}
	return out
}

// ReadGameQ reads shared/fixtures/<proto>/<name>.expected.json and its datagrams.
// Its "expected" holds the values under one key (GameQ's protocol) or directly.
func ReadGameQ(t testing.TB, proto, name string) GameQ {
	t.Helper()
	var e struct {
		Fixtures []string       `json:"fixtures"`
		Expected map[string]any `json:"expected"`
	}
	if err := json.Unmarshal(prototest.Fixture(t, proto, name+".expected.json"), &e); err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	g := GameQ{Name: name, Fixtures: e.Fixtures, Want: e.Expected}
	if len(e.Expected) == 1 {
		for _, v := range e.Expected {
			if m, ok := v.(map[string]any); ok {
				g.Want = m
			}
		}
	}
	for _, f := range e.Fixtures {
		g.Parts = append(g.Parts, prototest.Fixture(t, proto, f))
	}
	return g
}

// Str is m[k] when it is a string, else "".
func Str(m map[string]any, k string) string {
	s, _ := m[k].(string)
	return s
}

// Count reads GameQ's decimal string as a count, unknown when it is none.
func Count(s string) protocols.Count {
	n, err := strconv.ParseInt(strings.TrimSpace(s), 10, 64)
	if err != nil {
		return protocols.Count{}
	}
	return protocols.Known(n)
}

// Info is the value of key in the result's info, and whether it is there.
func Info(res *protocols.Result, key string) (string, bool) {
	for _, kv := range res.Info {
		if kv.Key == key {
			return kv.Value, true
		}
	}
	return "", false
}

// Sep splits one fuzz input into the datagrams of one reply.
var Sep = []byte("\n||\n")

// Split is a fuzz input's datagrams.
func Split(b []byte) [][]byte { return bytes.Split(b, Sep) }

// Seeds adds testdata/*.bin, the captures of shared/fixtures/<proto> that
// match globs (when the tree is there), and each of joined as one input, its
// datagrams joined with Sep.
func Seeds(f *testing.F, proto string, globs []string, joined ...[][]byte) {
	files, _ := filepath.Glob(filepath.Join("testdata", "*.bin"))
	if s := prototest.SharedDir(); s != "" {
		for _, g := range globs {
			more, _ := filepath.Glob(filepath.Join(s, "fixtures", proto, g))
			files = append(files, more...)
		}
	}
	for _, file := range files {
		if b, err := os.ReadFile(file); err == nil {
			f.Add(b)
		}
	}
	for _, parts := range joined {
		f.Add(bytes.Join(parts, Sep))
	}
}

// CheckDecoded asserts what a GameSpy decoder promises of any input: an error
// and no result, or a result (with at most a "truncated" error) of valid UTF-8
// and at most maxPlayers players.
func CheckDecoded(t *testing.T, res *protocols.Result, err error, maxPlayers int) {
	t.Helper()
	if res == nil {
		if err == nil {
			t.Fatal("nil result without error")
		}
		return
	}
	if err != nil && wire.Reason(err) != "truncated" {
		t.Fatalf("result with a %s error", wire.Reason(err))
	}
	if len(res.PlayerList) > maxPlayers {
		t.Fatalf("%d players", len(res.PlayerList))
	}
	prototest.CheckUTF8(t, res)
}

// Head is what a vector's Result must say above its lists; Info lists values
// it must hold (others may be there too).
type Head struct {
	Name, Map, Game, Version string
	Players, Max             protocols.Count
	Password                 protocols.Flag
	Info                     map[string]string
}

// CheckHead compares res with h.
func CheckHead(t *testing.T, res *protocols.Result, h Head) {
	t.Helper()
	if res.Name != h.Name || res.Map != h.Map || res.Game != h.Game || res.Version != h.Version {
		t.Errorf("name/map/game/version = %q %q %q %q, want %q %q %q %q",
			res.Name, res.Map, res.Game, res.Version, h.Name, h.Map, h.Game, h.Version)
	}
	if res.Players != h.Players || res.MaxPlayers != h.Max || res.Password != h.Password {
		t.Errorf("players/max/password = %v %v %v, want %v %v %v",
			res.Players, res.MaxPlayers, res.Password, h.Players, h.Max, h.Password)
	}
	prototest.CheckInfoHas(t, res, h.Info)
}

// WithSession returns a copy of the GameSpy v3/v4 reply b echoing session (the
// four bytes after the type).
func WithSession(b []byte, session []byte) []byte {
	out := bytes.Clone(b)
	if len(out) >= 5 {
		copy(out[1:5], session)
	}
	return out
}

// Failure is one way a GameSpy server fails a probe: the server, the deadline
// and the error wanted (the order of the packages' tables).
type Failure struct {
	Name string
	D    time.Duration
	H    prototest.Handler
	Want error
}

// Failures probes each case's server with a querier p makes of s, and wants its
// error (prototest.ReplyFailures).
func Failures(t *testing.T, p protocols.Protocol, s protocols.Settings, cases []Failure) {
	t.Helper()
	rf := make([]prototest.ReplyFailure, len(cases))
	for i, c := range cases {
		rf[i] = prototest.ReplyFailure{Name: c.Name, Handler: c.H, D: c.D, Want: c.Want}
	}
	prototest.ReplyFailures(t, p, nil, s, rf...)
}
