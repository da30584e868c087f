package quake2

import (
	"fmt"
	"net/netip"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/gameserver-exporter/gameserver_exporter/protocols"
	"github.com/gameserver-exporter/gameserver_exporter/protocols/internal/idtech/idtechtest"
	"github.com/gameserver-exporter/gameserver_exporter/protocols/prototest"
	"github.com/gameserver-exporter/gameserver_exporter/protocols/wire"
)

const oob = idtechtest.OOB

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

// TestStatus runs the idTech status suite: q2ded answers `status` with a
// `print` datagram whatever follows the command.
func TestStatus(t *testing.T) {
	var full []string
	for i := range 40 {
		full = append(full, fmt.Sprintf(`%d %d "%s"`, i, i, strings.Repeat("n", 15)))
	}
	short := statusReply(`1 2 "a"`)
	idtechtest.RunStatus(t, idtechtest.Status{
		Protocol: Protocol,
		Reply:    func(_ []byte, lines ...string) []byte { return statusReply(lines...) },
		Line:     idtechtest.PlayerLine,
		Strays: func([]byte) [][]byte {
			return [][]byte{[]byte(oob + "challenge 1234"), []byte(oob + "print\nServer is version 3.19.\n"), []byte("junk")}
		},
		Unusable: map[string]idtechtest.Bad{
			"print":      {Reply: []byte(oob + "print\nBad rcon_password.\n"), Want: wire.ErrMalformed},
			"garbage":    {Reply: []byte("\x00\x01garbage"), Want: wire.ErrMalformed},
			"info reply": {Reply: []byte(oob + "info\nFake   q2dm1  3/ 8\n"), Want: wire.ErrMalformed},
		},
		Broken: map[string]idtechtest.Bad{
			"print only":  {Reply: []byte(oob + "print"), Want: wire.ErrTruncated},
			"blank lines": {Reply: []byte(oob + "print\n \r\n\n"), Want: wire.ErrTruncated},
		},
		// A reply cut inside a name, one with a NUL, a full 1400-byte one.
		Shapes: map[string]idtechtest.Shape{
			"cut":  {Reply: func([]byte) []byte { return statusReply(`1 2 "a"`, `3 4 "bbbb"`)[:len(short)+6] }, Players: 2},
			"NUL":  {Reply: func([]byte) []byte { return append(statusReply(`1 2 "a"`), 0, 'x') }, Players: 1},
			"full": {Reply: func([]byte) []byte { return statusReply(full...) }, Players: 40},
		},
		Contract: prototest.Contract{Name: "quake2", DefaultPort: 27910, Transport: "udp", WantName: "Fake Q2 Arena"},
	})
}
