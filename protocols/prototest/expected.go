package prototest

import (
	"encoding/hex"
	"encoding/json"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/gameserver-exporter/gameserver_exporter/protocols"
	"github.com/gameserver-exporter/gameserver_exporter/protocols/wire"
)

// The .expected.json files of the vectors and fixtures share one convention for the
// decoded Result (shared/fixtures/PROVENANCE.md): a field that is absent is not
// checked, null means "not reported", anything else is the value.

// Opt is one such field.
type Opt[T any] struct {
	Set, Null bool
	V         T
}

func (o *Opt[T]) UnmarshalJSON(b []byte) error {
	o.Set = true
	if string(b) == "null" {
		o.Null = true
		return nil
	}
	return json.Unmarshal(b, &o.V)
}

// ExpectedResult is the part of an expected Result every protocol shares; a
// package embeds it next to its own player list layout.
type ExpectedResult struct {
	Name, Map, Game, Version Opt[string]
	Players                  Opt[int64]
	MaxPlayers               Opt[int64] `json:"max_players"`
	Bots                     Opt[int64]
	Password                 Opt[bool]
	Uptime                   Opt[float64] `json:"uptime_seconds"`
	MapTime                  Opt[float64] `json:"map_time_seconds"`
}

// Expected is the .expected.json of a vector whose decoder returns a Result: the
// shared fields, Info entries that must be present with their values, or the
// reason of the error (Error) and the server's message the error must quote at
// its end (Message).
type Expected struct {
	ExpectedResult
	Description string
	Info        map[string]string
	Error       string
	Message     *string
}

// CheckExpected asserts a decoded result, or its error, against e.
func CheckExpected(t testing.TB, e Expected, res *protocols.Result, err error) {
	t.Helper()
	if CheckError(t, err, e.Error, e.Message) {
		return
	}
	if err != nil {
		t.Fatal(err)
	}
	CheckResult(t, res, e.ExpectedResult)
	CheckUTF8(t, res)
	info := map[string]string{}
	for _, kv := range res.InfoKV() {
		info[kv.Key] = kv.Value
	}
	for k, v := range e.Info {
		if got, ok := info[k]; !ok || got != v {
			t.Errorf("info %s = %q (present %v), want %q", k, got, ok, v)
		}
	}
}

// CheckError asserts err's reason when one is expected (reason != "") and, when
// message is set, that err ends with the server's message, quoted. It reports
// whether an error was expected: the caller checks the result otherwise.
func CheckError(t testing.TB, err error, reason string, message *string) bool {
	t.Helper()
	if reason == "" {
		return false
	}
	if got := wire.Reason(err); got != reason {
		t.Fatalf("error %v (reason %q), want reason %q", err, got, reason)
	}
	if message != nil && !strings.HasSuffix(err.Error(), ": "+strconv.Quote(*message)) {
		t.Errorf("error %q does not end with the server's message %q", err, *message)
	}
	return true
}

// Names lists the files of testdata/ whose names end in suffix, without it
// ("ok_bf4" for "ok_bf4.expected.json"), or fails the test when there are none.
func Names(t testing.TB, suffix string) []string {
	t.Helper()
	files, _ := filepath.Glob(filepath.Join("testdata", "*"+suffix))
	if len(files) == 0 {
		t.Fatalf("no testdata/*%s", suffix)
	}
	names := make([]string, len(files))
	for i, f := range files {
		names[i] = strings.TrimSuffix(filepath.Base(f), suffix)
	}
	return names
}

// ReadJSON decodes the JSON file at path into a T, or fails the test.
func ReadJSON[T any](t testing.TB, path string) T {
	t.Helper()
	var v T
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(b, &v); err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	return v
}

// CheckCount asserts a count against an expected field.
func CheckCount(t testing.TB, field string, got protocols.Count, want Opt[int64]) {
	t.Helper()
	if want.Set && (got.Known == want.Null || got.Known && got.Value != want.V) {
		t.Errorf("%s = %+v, want %+v", field, got, want)
	}
}

// CheckResult asserts the shared fields of a Result: the strings, the counts and
// the password flag, each where the expected file sets it.
func CheckResult(t testing.TB, res *protocols.Result, w ExpectedResult) {
	t.Helper()
	for _, f := range []struct {
		field, got string
		want       Opt[string]
	}{{"name", res.Name, w.Name}, {"map", res.Map, w.Map}, {"game", res.Game, w.Game}, {"version", res.Version, w.Version}} {
		if f.want.Set && f.got != f.want.V {
			t.Errorf("%s = %q, want %q", f.field, f.got, f.want.V)
		}
	}
	CheckCount(t, "players", res.Players, w.Players)
	CheckCount(t, "max players", res.MaxPlayers, w.MaxPlayers)
	CheckCount(t, "bots", res.Bots, w.Bots)
	if w.Password.Set {
		want := protocols.FlagUnknown
		if !w.Password.Null {
			want = protocols.FlagOf(w.Password.V)
		}
		if res.Password != want {
			t.Errorf("password = %v, want %v", res.Password, want)
		}
	}
	checkSpan(t, "uptime", res.Uptime, w.Uptime)
	checkSpan(t, "map time", res.MapTime, w.MapTime)
}

func checkSpan(t testing.TB, field string, got protocols.Span, want Opt[float64]) {
	t.Helper()
	if !want.Set {
		return
	}
	w := protocols.Span{}
	if !want.Null {
		w = protocols.SpanSeconds(want.V)
	}
	if got != w {
		t.Errorf("%s = %+v, want %+v", field, got, w)
	}
}

// CheckUTF8 asserts that every string of a Result is valid UTF-8, as the
// exporter expects of every decoder.
func CheckUTF8(t testing.TB, res *protocols.Result) {
	t.Helper()
	for _, s := range []string{res.Name, res.Map, res.Game, res.Version} {
		if !utf8.ValidString(s) {
			t.Errorf("invalid UTF-8 %q", s)
		}
	}
	for _, p := range res.PlayerList {
		if !utf8.ValidString(p.Name) || !utf8.ValidString(p.Team) {
			t.Errorf("invalid UTF-8 player %q", p.Name)
		}
	}
	for _, kv := range res.InfoKV() { // deferred info too
		if !utf8.ValidString(kv.Key) || !utf8.ValidString(kv.Value) {
			t.Errorf("invalid UTF-8 info %q", kv)
		}
	}
}

// FixtureBytes returns the exact bytes of a fixture's string value
// (shared/fixtures/PROVENANCE.md): plain JSON strings are UTF-8, others come as
// {"hex": ...} (with a "latin1" reading beside it).
func FixtureBytes(t testing.TB, v any) string {
	t.Helper()
	switch x := v.(type) {
	case string:
		return x
	case map[string]any:
		b, err := hex.DecodeString(x["hex"].(string))
		if err != nil {
			t.Fatal(err)
		}
		return string(b)
	}
	t.Fatalf("unexpected JSON string value %#v", v)
	return ""
}
