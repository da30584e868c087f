package gamespytest

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/gameserver-exporter/gameserver_exporter/protocols"
	"github.com/gameserver-exporter/gameserver_exporter/protocols/prototest"
)

// Probes that must end in a timeout get Short; the others Long, so that a
// loaded test machine cannot turn them into timeouts.
const (
	Short = 300 * time.Millisecond
	Long  = 3 * time.Second
)

// Row is a player row a Result must list; a zero Count is one the reply did not
// send.
type Row struct {
	Name        string
	Score, Ping protocols.Count
	Team        string
	Bot         bool
}

// R is a row with its score and ping sent.
func R(name string, score, ping int64, team string) Row {
	return Row{Name: name, Score: protocols.Known(score), Ping: protocols.Known(ping), Team: team}
}

// S is a row with only its score sent.
func S(name string, score int64) Row { return Row{Name: name, Score: protocols.Known(score)} }

// CheckRows compares a player list with want, row by row.
func CheckRows(t testing.TB, got []protocols.Player, want []Row) {
	t.Helper()
	if len(got) != len(want) {
		t.Fatalf("%d players, want %d: %+v", len(got), len(want), got)
	}
	for i, w := range want {
		g := got[i]
		if (Row{g.Name, g.Score, g.Ping, g.Team, g.Bot}) != w {
			t.Errorf("player %d = %q %v %v %q bot %v, want %+v", i, g.Name, g.Score, g.Ping, g.Team, g.Bot, w)
		}
	}
}

// Vector is one row of a decoder's table: the error its decoding wraps (nil:
// none), whether no Result comes with it, the Result's head, its bot count,
// its rows (NoList: no list at all) and Info keys it must not hold (NoInfo:
// none at all).
type Vector struct {
	Name     string
	Decoder  string // which of the package's decoders, when it has several
	Err      error
	NoResult bool
	Head
	Bots    protocols.Count
	Rows    []Row
	NoList  bool
	NoInfo  bool
	NotInfo []string
}

// CheckVector asserts a decoding's res and err against v.
func CheckVector(t *testing.T, res *protocols.Result, err error, v Vector) {
	t.Helper()
	prototest.WantedError(t, err, v.Err)
	if v.NoResult {
		if res != nil {
			t.Fatalf("result %+v with error %v", res, err)
		}
		return
	}
	if res == nil {
		t.Fatalf("no result (error %v)", err)
	}
	CheckHead(t, res, v.Head)
	if res.Bots != v.Bots {
		t.Errorf("bots %v, want %v", res.Bots, v.Bots)
	}
	if v.NoList != (res.PlayerList == nil) {
		t.Errorf("player list %+v, want one: %v", res.PlayerList, !v.NoList)
	}
	CheckRows(t, res.PlayerList, v.Rows)
	if v.NoInfo && len(res.Info) != 0 {
		t.Errorf("info %v, want none", res.Info)
	}
	for _, k := range v.NotInfo {
		if _, ok := Info(res, k); ok {
			t.Errorf("info has %s", k)
		}
	}
	prototest.CheckUTF8(t, res)
}

// Reorder is parts in the order of the indices.
func Reorder(parts [][]byte, order ...int) [][]byte {
	out := make([][]byte, len(order))
	for i, o := range order {
		out[i] = parts[o]
	}
	return out
}

// SameResult fails unless b says what a says: name, list and info alike.
func SameResult(t testing.TB, what string, a, b *protocols.Result, err error) {
	t.Helper()
	if err != nil || b == nil || fmt.Sprint(a.Name, a.PlayerList, a.Info) != fmt.Sprint(b.Name, b.PlayerList, b.Info) {
		t.Errorf("%s: %+v, %v; want %+v", what, b, err, a)
	}
}

// Requests is a GameSpy v3/v4 server's requests as type/length and a letter
// for the session (A the first one seen): "09/7A 00/15A".
func Requests(reqs [][]byte) string {
	var out []string
	sessions := map[string]byte{}
	for _, r := range reqs {
		if len(r) < 7 {
			out = append(out, fmt.Sprintf("% x", r))
			continue
		}
		id, ok := sessions[string(r[3:7])]
		if !ok {
			id = 'A' + byte(len(sessions))
			sessions[string(r[3:7])] = id
		}
		out = append(out, fmt.Sprintf("%02x/%d%c", r[2], len(r), id))
	}
	return strings.Join(out, " ")
}
