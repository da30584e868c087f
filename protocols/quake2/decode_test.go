package quake2

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/gameserver-exporter/gameserver_exporter/protocols"
)

// opt is a value a test may assert: absent means "not checked", null means
// "not reported" (unknown count or flag), anything else the value.
type opt[T any] struct {
	Set, Null bool
	V         T
}

func (o *opt[T]) UnmarshalJSON(b []byte) error {
	o.Set = true
	if string(b) == "null" {
		o.Null = true
		return nil
	}
	return json.Unmarshal(b, &o.V)
}

// expected is the layout of testdata/*.expected.json (see testdata/README.md).
type expected struct {
	Description string
	Error       string
	Decoded     *struct {
		InfoPairs int `json:"info_pairs"`
		Info      [][2]string
		Players   int
		Unparsed  int
		Dropped   int
		Addresses []string
	}
	Result *struct {
		Name, Map, Game, Version opt[string]
		Players                  opt[int64]
		MaxPlayers               opt[int64] `json:"max_players"`
		Bots                     opt[int64]
		Password                 opt[bool]
		PlayerList               []struct {
			Name        string
			Score, Ping int64
		} `json:"player_list"`
	}
}

func readExpected(t *testing.T, path string) expected {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var e expected
	if err := json.Unmarshal(b, &e); err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	return e
}

func checkCount(t *testing.T, field string, got protocols.Count, want opt[int64]) {
	t.Helper()
	if want.Set && (got.Known == want.Null || got.Known && got.Value != want.V) {
		t.Errorf("%s = %+v, want %+v", field, got, want)
	}
}

func checkResult(t *testing.T, res *protocols.Result, e expected) {
	t.Helper()
	w := e.Result
	for _, f := range []struct {
		field, got string
		want       opt[string]
	}{{"name", res.Name, w.Name}, {"map", res.Map, w.Map}, {"game", res.Game, w.Game}, {"version", res.Version, w.Version}} {
		if f.want.Set && f.got != f.want.V {
			t.Errorf("%s = %q, want %q", f.field, f.got, f.want.V)
		}
	}
	checkCount(t, "players", res.Players, w.Players)
	checkCount(t, "max players", res.MaxPlayers, w.MaxPlayers)
	checkCount(t, "bots", res.Bots, w.Bots)
	if w.Password.Set {
		want := protocols.FlagUnknown
		if !w.Password.Null {
			want = protocols.FlagOf(w.Password.V)
		}
		if res.Password != want {
			t.Errorf("password = %v, want %v", res.Password, want)
		}
	}
	if w.PlayerList != nil {
		if len(res.PlayerList) != len(w.PlayerList) {
			t.Fatalf("player list = %d entries, want %d: %+v", len(res.PlayerList), len(w.PlayerList), res.PlayerList)
		}
		for i, want := range w.PlayerList {
			got := res.PlayerList[i]
			if got.Name != want.Name || got.Score != protocols.Known(want.Score) || got.Ping != protocols.Known(want.Ping) ||
				got.DurationKnown || got.Team != "" || got.Bot {
				t.Errorf("player %d = %+v, want %+v", i, got, want)
			}
		}
	}
	checkUTF8(t, res)
}

func checkUTF8(t *testing.T, res *protocols.Result) {
	t.Helper()
	for _, s := range []string{res.Name, res.Map, res.Game, res.Version} {
		if !utf8.ValidString(s) {
			t.Errorf("invalid UTF-8 %q", s)
		}
	}
	for _, p := range res.PlayerList {
		if !utf8.ValidString(p.Name) {
			t.Errorf("invalid UTF-8 player %q", p.Name)
		}
	}
	for _, kv := range res.Info {
		if !utf8.ValidString(kv.Key) || !utf8.ValidString(kv.Value) {
			t.Errorf("invalid UTF-8 info %q", kv)
		}
	}
}

// TestVectors runs the hand-built vectors in testdata/ (see testdata/README.md).
// No real Quake II capture exists in shared/ (no Debian package runs a Quake II
// server): these vectors and the qstat cross-check are the reference.
func TestVectors(t *testing.T) {
	files, _ := filepath.Glob("testdata/*.expected.json")
	if len(files) == 0 {
		t.Fatal("no test vectors in testdata/")
	}
	for _, f := range files {
		name := strings.TrimSuffix(filepath.Base(f), ".expected.json")
		t.Run(name, func(t *testing.T) {
			e := readExpected(t, f)
			b, err := os.ReadFile(filepath.Join("testdata", name+".bin"))
			if err != nil {
				t.Fatal(err)
			}
			r, err := Decode(b)
			if e.Error != "" {
				if got := protocols.Reason(err); got != e.Error || r != nil {
					t.Fatalf("error %v (reason %q), want reason %q", err, got, e.Error)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			d := e.Decoded
			if len(r.Pairs) != d.InfoPairs || len(r.Players) != d.Players || r.Unparsed != d.Unparsed || r.Dropped != d.Dropped {
				t.Errorf("decoded %d pairs, %d lines, %d unparsed, %d dropped; want %+v",
					len(r.Pairs), len(r.Players), r.Unparsed, r.Dropped, *d)
			}
			for i, kv := range d.Info {
				if i >= len(r.Pairs) || r.Pairs[i].Key != kv[0] || r.Pairs[i].Value != kv[1] {
					t.Errorf("info[%d] = %v, want %q", i, r.Pairs[min(i, len(r.Pairs)-1)], kv)
				}
			}
			for i, a := range d.Addresses {
				if string(r.Players[i].Address) != a {
					t.Errorf("player %d address %q, want %q", i, r.Players[i].Address, a)
				}
			}
			checkResult(t, r.Result(true, true), e)
		})
	}
}

func TestDecodeLimits(t *testing.T) {
	if _, err := Decode(make([]byte, MaxDatagram+1)); !errors.Is(err, protocols.ErrTooLarge) {
		t.Errorf("oversized datagram: %v, want too large", err)
	}
	b := []byte("\xff\xff\xff\xffprint\n")
	for i := range 600 {
		b = fmt.Appendf(b, `\k%d\v`, i)
	}
	r, err := Decode(append(b, '\n'))
	if err != nil {
		t.Fatal(err)
	}
	if len(r.Pairs) != 512 || r.PairsDropped != 88 {
		t.Errorf("%d pairs kept, %d dropped", len(r.Pairs), r.PairsDropped)
	}
	// Result without players or rules leaves both lists empty.
	r, _ = Decode([]byte("\xff\xff\xff\xffprint\n\\hostname\\x\n1 2 \"a\"\n"))
	if res := r.Result(false, false); res.PlayerList != nil || res.Rules != nil || len(res.Info) != 1 || res.Players != protocols.Known(1) {
		t.Errorf("Result(false, false) = %+v", res)
	}
}
