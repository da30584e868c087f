// Package idtechtest holds what the tests of the idTech protocols (quake2,
// quakeworld, darkplaces, quake3) share: the one-datagram status exchange
// suite, the vector loop and layout, fuzz seeds and caps, the benchmarks, the
// qstat cross-check and the real-server captures. A protocol's own tests keep
// only its quirks.
package idtechtest

import (
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/gameserver-exporter/gameserver_exporter/protocols"
	"github.com/gameserver-exporter/gameserver_exporter/protocols/prototest"
	"github.com/gameserver-exporter/gameserver_exporter/protocols/wire"
)

// OOB is the four 0xFF bytes that start every connectionless datagram.
const OOB = "\xff\xff\xff\xff"

// Vector is the top of every idTech testdata/*.expected.json.
type Vector struct {
	Description string
	Error       string // the reason the decoder fails with; none when it decodes
}

// WantError is the reason the decoder must fail with, or "".
func (v Vector) WantError() string { return v.Error }

// Counts is what every idTech vector's "decoded" counts.
type Counts struct {
	InfoPairs int         `json:"info_pairs"`
	Info      [][2]string // the leading info pairs, in order
	Players   int         // parsed player lines
	Unparsed  int
	Dropped   int
}

// Check checks a decoded reply's info pairs and line counts against c.
func (c Counts) Check(t testing.TB, pairs []protocols.KV, players, unparsed, dropped int) {
	t.Helper()
	if len(pairs) != c.InfoPairs || players != c.Players || unparsed != c.Unparsed || dropped != c.Dropped {
		t.Errorf("decoded %d pairs, %d lines, %d unparsed, %d dropped; want %+v", len(pairs), players, unparsed, dropped, c)
	}
	checkInfo(t, pairs, c.Info)
}

// Vectors decodes each hand-built vector of testdata/ (see the package's
// testdata/README.md), NAME.bin with NAME.expected.json read into E: the
// decoder fails with E's reason, with no reply, or check runs on its reply.
func Vectors[T any, E interface{ WantError() string }](t *testing.T, decode func([]byte) (*T, error), check func(t *testing.T, r *T, e E)) {
	for _, name := range prototest.Names(t, ".expected.json") {
		t.Run(name, func(t *testing.T) {
			e := prototest.ReadJSON[E](t, filepath.Join("testdata", name+".expected.json"))
			b, err := os.ReadFile(filepath.Join("testdata", name+".bin"))
			if err != nil {
				t.Fatal(err)
			}
			r, err := decode(b)
			if want := e.WantError(); want != "" {
				if got := wire.Reason(err); got != want || r != nil {
					t.Fatalf("error %v (reason %q), want reason %q", err, got, want)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			check(t, r, e)
		})
	}
}

// checkInfo checks decoded info pairs against a vector's leading [key, value]s.
func checkInfo(t testing.TB, got []protocols.KV, want [][2]string) {
	t.Helper()
	for i, kv := range want {
		if i >= len(got) || got[i].Key != kv[0] || got[i].Value != kv[1] {
			t.Errorf("info[%d] = %v, want %q", i, got[min(i, len(got)-1)], kv)
		}
	}
}

// playerLine is a player line of the quake2/quake3 layout: `score ping "name"`.
func playerLine(name string) string { return `1 2 "` + name + `"` }

// Result is an idTech vector's "result": Result fields and the player list.
type Result struct {
	prototest.ExpectedResult
	PlayerList []Player `json:"player_list"`
}

// Player is one player of a vector's "player_list".
type Player struct {
	Name        string
	Score, Ping prototest.Opt[int64]
	Team        string
	Bot         bool
	Duration    *float64 // none: the protocol reports no time on the server
}

// Check checks res against w: its fields, each player when a list is stated,
// and valid UTF-8 throughout.
func (w *Result) Check(t testing.TB, res *protocols.Result) {
	t.Helper()
	prototest.CheckResult(t, res, w.ExpectedResult)
	if w.PlayerList != nil {
		if len(res.PlayerList) != len(w.PlayerList) {
			t.Fatalf("player list = %d entries, want %d: %+v", len(res.PlayerList), len(w.PlayerList), res.PlayerList)
		}
		for i, want := range w.PlayerList {
			got := res.PlayerList[i]
			if got.Name != want.Name || got.Team != want.Team || got.Bot != want.Bot || got.DurationKnown != (want.Duration != nil) ||
				want.Duration != nil && got.Duration != *want.Duration {
				t.Errorf("player %d = %+v, want %+v (duration %s)", i, got, want, durationOf(want.Duration))
			}
			prototest.CheckCount(t, "score", got.Score, want.Score)
			prototest.CheckCount(t, "ping", got.Ping, want.Ping)
		}
	}
	prototest.CheckUTF8(t, res)
}

// durationOf says a vector's duration for messages.
func durationOf(d *float64) string {
	if d == nil {
		return "unknown"
	}
	return fmt.Sprint(*d)
}
