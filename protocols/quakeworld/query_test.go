package quakeworld

import (
	"errors"
	"fmt"
	"net/netip"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/gameserver-exporter/gameserver_exporter/protocols"
	"github.com/gameserver-exporter/gameserver_exporter/protocols/prototest"
	"github.com/gameserver-exporter/gameserver_exporter/protocols/wire"
)

const oob = "\xff\xff\xff\xff"

// statusReply builds an mvdsv-style reply: 'n', serverinfo, player lines, NUL.
func statusReply(players ...string) []byte {
	var b strings.Builder
	b.WriteString(oob + "n")
	b.WriteString(`\maxfps\77\*version\MVDSV 0.35\*gamedir\qw\hostname\Fake ` + "\xd1\xd7" + ` Box\maxclients\16\map\dm4` + "\n")
	for _, p := range players {
		b.WriteString(p + "\n")
	}
	b.WriteByte(0)
	return []byte(b.String())
}

// fakeServer answers every `status` (with or without options) with reply.
func fakeServer(t testing.TB, reply []byte) netip.AddrPort {
	return prototest.UDP(t, func(req []byte) [][]byte {
		if !strings.HasPrefix(string(req), oob+"status") {
			return nil
		}
		return [][]byte{reply}
	})
}

func newQuerier(t testing.TB, s protocols.Settings) protocols.Querier {
	t.Helper()
	q, err := Protocol.New(s)
	if err != nil {
		t.Fatal(err)
	}
	return q
}

func TestQuery(t *testing.T) {
	var got atomic.Value
	addr := prototest.UDP(t, func(req []byte) [][]byte {
		got.Store(string(req))
		return [][]byte{statusReply(`3 12 5 48 "`+"\xd0\xec\xe1\xf9\xe5\xf2"+`" "base" 4 4`, `7 -3 0 999 "newbie" "" 13 13`)}
	})
	q := newQuerier(t, protocols.Settings{Players: true, Rules: true})
	tr := wire.NewTrace()
	res, err := q.Query(prototest.Context(t, 2*time.Second), protocols.At(addr), tr)
	if err != nil {
		t.Fatal(err)
	}
	if got.Load() != oob+"status\n" {
		t.Errorf("request %q", got.Load())
	}
	if res.Name != "Fake QW Box" || res.Map != "dm4" || res.Game != "qw" || res.Version != "MVDSV 0.35" {
		t.Errorf("name/map/game/version = %q %q %q %q", res.Name, res.Map, res.Game, res.Version)
	}
	if res.Players != protocols.Known(2) || res.MaxPlayers != protocols.Known(16) || res.Bots.Known || res.Password != protocols.FlagFalse {
		t.Errorf("players %+v max %+v bots %+v password %v", res.Players, res.MaxPlayers, res.Bots, res.Password)
	}
	want := []protocols.Player{
		{Name: "Player", Score: protocols.Known(12), Ping: protocols.Known(48), Duration: 300, DurationKnown: true},
		{Name: "newbie", Score: protocols.Known(-3), Ping: protocols.Known(999), DurationKnown: true},
	}
	if fmt.Sprint(res.PlayerList) != fmt.Sprint(want) {
		t.Errorf("players = %+v, want %+v", res.PlayerList, want)
	}
	if len(res.Rules) != 6 || len(res.Info) != 6 {
		t.Errorf("rules = %q, info = %q", res.Rules, res.Info)
	}
	if len(tr.Phases) != 1 || tr.Phases[0].Name != "info" || tr.Phases[0].Err != nil {
		t.Errorf("phases = %+v", tr.Phases)
	}
}

func TestQuerySettingsOff(t *testing.T) {
	addr := fakeServer(t, statusReply(`1 2 3 4 "a" "" 0 0`))
	res, err := newQuerier(t, protocols.Settings{}).Query(prototest.Context(t, 2*time.Second), protocols.At(addr), nil)
	if err != nil {
		t.Fatal(err)
	}
	if res.PlayerList != nil || res.Rules != nil || res.Players != protocols.Known(1) || len(res.Info) == 0 {
		t.Errorf("result = %+v", res)
	}
}

// Stray datagrams (another OOB command, a console print, junk) are skipped and
// the real reply is used, even when it comes twice.
func TestQuerySkipsStrays(t *testing.T) {
	addr := prototest.UDP(t, func([]byte) [][]byte {
		return [][]byte{
			[]byte(oob + "c12345\x00"),
			[]byte(oob + "n\nBad challenge.\n\x00"),
			[]byte("junk"),
			statusReply(`1 2 3 4 "real" "" 0 0`),
			statusReply(`1 2 3 4 "real" "" 0 0`),
		}
	})
	tr := wire.NewTrace()
	res, err := newQuerier(t, protocols.Settings{Players: true}).Query(prototest.Context(t, 2*time.Second), protocols.At(addr), tr)
	if err != nil {
		t.Fatal(err)
	}
	if len(res.PlayerList) != 1 || res.PlayerList[0].Name != "real" {
		t.Errorf("players = %+v", res.PlayerList)
	}
	ignored := 0
	for _, p := range tr.Packets {
		if p.Note != "" {
			ignored++
		}
	}
	if ignored != 3 {
		t.Errorf("%d packets noted as ignored, want 3", ignored)
	}
}

// A server that answers, but never with a status reply, fails with the reason
// of the last skipped datagram once the deadline passes, not a bare timeout.
func TestQueryNoUsableReply(t *testing.T) {
	for name, reply := range map[string][]byte{
		"print":     []byte(oob + "n\nBad challenge.\n\x00"),
		"garbage":   []byte("\x00\x01garbage"),
		"challenge": []byte(oob + "c42\x00"),
	} {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			addr := prototest.UDP(t, func([]byte) [][]byte { return [][]byte{reply} })
			start := time.Now()
			_, err := newQuerier(t, protocols.Settings{Retries: 1}).Query(prototest.Context(t, 300*time.Millisecond), protocols.At(addr), nil)
			if !errors.Is(err, wire.ErrMalformed) || errors.Is(err, wire.ErrTimeout) {
				t.Errorf("err = %v, want malformed", err)
			}
			if d := time.Since(start); d > 2*time.Second+prototest.LagSince(start) {
				t.Errorf("returned after %v", d)
			}
		})
	}
}

// A status reply that does not decode is the server's answer: fail at once.
func TestQueryBrokenReply(t *testing.T) {
	for name, reply := range map[string][]byte{
		"print byte only": []byte(oob + "n"),
		"blank text":      []byte(oob + "n \r\n\x00"),
	} {
		t.Run(name, func(t *testing.T) {
			addr := prototest.UDP(t, func([]byte) [][]byte { return [][]byte{reply} })
			tr := wire.NewTrace()
			_, err := newQuerier(t, protocols.Settings{}).Query(prototest.Context(t, 5*time.Second), protocols.At(addr), tr)
			if !errors.Is(err, wire.ErrTruncated) {
				t.Errorf("err = %v, want truncated", err)
			}
			if len(tr.Phases) != 1 || !errors.Is(tr.Phases[0].Err, wire.ErrTruncated) {
				t.Errorf("phases = %+v", tr.Phases)
			}
		})
	}
}

// A reply cut inside a name, one without the NUL, a 32-player one.
func TestQueryReplyShapes(t *testing.T) {
	var full []string
	for i := range 32 {
		full = append(full, fmt.Sprintf(`%d %d %d %d "%s" "base" 4 4`, i+1, i, i, i, strings.Repeat("n", 31)))
	}
	for name, tc := range map[string]struct {
		reply   []byte
		players int64
	}{
		"cut":    {statusReply(`1 2 3 4 "a" "" 0 0`, `5 6 7 8 "b" "" 0 0`)[:len(statusReply(`1 2 3 4 "a" "" 0 0`))+8], 2},
		"no NUL": {[]byte(strings.TrimSuffix(string(statusReply(`1 2 3 4 "a" "" 0 0`)), "\x00")), 1},
		"full":   {statusReply(full...), 32},
	} {
		t.Run(name, func(t *testing.T) {
			addr := fakeServer(t, tc.reply)
			tr := wire.NewTrace()
			res, err := newQuerier(t, protocols.Settings{Players: true}).Query(prototest.Context(t, 2*time.Second), protocols.At(addr), tr)
			if err != nil {
				t.Fatal(err)
			}
			if res.Players != protocols.Known(tc.players) || int64(len(res.PlayerList)) != tc.players {
				t.Errorf("players = %+v (%d listed), want %d", res.Players, len(res.PlayerList), tc.players)
			}
		})
	}
}

func TestQuerierContract(t *testing.T) {
	prototest.QuerierContract(t, prototest.Contract{
		Protocol: Protocol, Name: "quakeworld", DefaultPort: 27500, Transport: "udp",
		Answer:   func([]byte) [][]byte { return [][]byte{statusReply()} },
		WantName: "Fake QW Box",
	})
}
