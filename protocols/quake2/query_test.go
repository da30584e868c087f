package quake2

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

// statusReply builds a q2ded-style reply: print, serverinfo, client lines.
func statusReply(players ...string) []byte {
	var b strings.Builder
	b.WriteString(oob + "print\n")
	b.WriteString(`\cheats\0\deathmatch\1\gamename\baseq2\hostname\Fake Q2 Arena\mapname\q2dm1\maxclients\8\needpass\0\version\3.20 x86 Dec 21 2003 Linux` + "\n")
	for _, p := range players {
		b.WriteString(p + "\n")
	}
	return []byte(b.String())
}

// fakeServer answers every `status` (with or without arguments) with reply.
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
		return [][]byte{statusReply(`12 48 "Player"`, `-3 0 "Bot x"`, `0 999 ""`)}
	})
	tr := wire.NewTrace()
	res, err := newQuerier(t, protocols.Settings{Players: true, Rules: true}).Query(prototest.Context(t, 2*time.Second), protocols.At(addr), tr)
	if err != nil {
		t.Fatal(err)
	}
	if got.Load() != oob+"status\n" {
		t.Errorf("request %q", got.Load())
	}
	if res.Name != "Fake Q2 Arena" || res.Map != "q2dm1" || res.Game != "baseq2" || res.Version != "3.20 x86 Dec 21 2003 Linux" {
		t.Errorf("name/map/game/version = %q %q %q %q", res.Name, res.Map, res.Game, res.Version)
	}
	if res.Players != protocols.Known(3) || res.MaxPlayers != protocols.Known(8) || res.Bots.Known || res.Password != protocols.FlagFalse {
		t.Errorf("players %+v max %+v bots %+v password %v", res.Players, res.MaxPlayers, res.Bots, res.Password)
	}
	want := []protocols.Player{
		{Name: "Player", Score: protocols.Known(12), Ping: protocols.Known(48)},
		{Name: "Bot x", Score: protocols.Known(-3), Ping: protocols.Known(0)},
		{Name: "", Score: protocols.Known(0), Ping: protocols.Known(999)},
	}
	if fmt.Sprint(res.PlayerList) != fmt.Sprint(want) {
		t.Errorf("players = %+v, want %+v", res.PlayerList, want)
	}
	if len(res.Rules) != 8 || len(res.Info) != 8 {
		t.Errorf("rules = %q, info = %q", res.Rules, res.Info)
	}
	if len(tr.Phases) != 1 || tr.Phases[0].Name != "info" || tr.Phases[0].Err != nil {
		t.Errorf("phases = %+v", tr.Phases)
	}
}

func TestQuerySettingsOff(t *testing.T) {
	addr := fakeServer(t, statusReply(`1 2 "a"`))
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
			[]byte(oob + "challenge 1234"),
			[]byte(oob + "print\nServer is version 3.19.\n"),
			[]byte("junk"),
			statusReply(`1 2 "real"`),
			statusReply(`1 2 "real"`),
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
		"print":      []byte(oob + "print\nBad rcon_password.\n"),
		"garbage":    []byte("\x00\x01garbage"),
		"info reply": []byte(oob + "info\nFake   q2dm1  3/ 8\n"),
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
		"print only":  []byte(oob + "print"),
		"blank lines": []byte(oob + "print\n \r\n\n"),
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

// A reply cut inside a name, one with a NUL, a full 1400-byte one.
func TestQueryReplyShapes(t *testing.T) {
	var full []string
	for i := range 40 {
		full = append(full, fmt.Sprintf(`%d %d "%s"`, i, i, strings.Repeat("n", 15)))
	}
	short := statusReply(`1 2 "a"`)
	for name, tc := range map[string]struct {
		reply   []byte
		players int64
	}{
		"cut":  {statusReply(`1 2 "a"`, `3 4 "bbbb"`)[:len(short)+6], 2},
		"NUL":  {append(statusReply(`1 2 "a"`), 0, 'x'), 1},
		"full": {statusReply(full...), 40},
	} {
		t.Run(name, func(t *testing.T) {
			addr := fakeServer(t, tc.reply)
			res, err := newQuerier(t, protocols.Settings{Players: true}).Query(prototest.Context(t, 2*time.Second), protocols.At(addr), nil)
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
		Protocol: Protocol, Name: "quake2", DefaultPort: 27910, Transport: "udp",
		Answer:   func([]byte) [][]byte { return [][]byte{statusReply()} },
		WantName: "Fake Q2 Arena",
	})
}
