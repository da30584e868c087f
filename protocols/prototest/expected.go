package prototest

import (
	"encoding/json"
	"os"
	"testing"
	"unicode/utf8"

	"github.com/gameserver-exporter/gameserver_exporter/protocols"
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
	for _, kv := range res.Info {
		if !utf8.ValidString(kv.Key) || !utf8.ValidString(kv.Value) {
			t.Errorf("invalid UTF-8 info %q", kv)
		}
	}
}
