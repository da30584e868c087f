package quake2

import (
	"fmt"
	"strings"
	"testing"

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
		Full: idtechtest.Full{
			Lines: []string{`12 48 "Player"`, `-3 0 "Bot x"`, `0 999 ""`},
			Name:  "Fake Q2 Arena", Map: "q2dm1", Game: "baseq2", Version: "3.20 x86 Dec 21 2003 Linux",
			Players: protocols.Known(3), MaxPlayers: protocols.Known(8), Password: protocols.FlagFalse,
			PlayerList: []protocols.Player{
				{Name: "Player", Score: protocols.Known(12), Ping: protocols.Known(48)},
				{Name: "Bot x", Score: protocols.Known(-3), Ping: protocols.Known(0)},
				{Name: "", Score: protocols.Known(0), Ping: protocols.Known(999)},
			},
			Rules:   8,
			Phases:  []string{"info"},
			Request: oob + "status\n",
		},
		Strays: func([]byte) [][]byte {
			return [][]byte{[]byte(oob + "challenge 1234"), []byte(oob + "print\nServer is version 3.19.\n"), []byte("junk")}
		},
		Unusable: map[string]idtechtest.Bad{
			"print":      {Reply: []byte(oob + "print\nBad rcon_password.\n"), Want: wire.ErrMalformed},
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

// BenchmarkQuery is a full status exchange over loopback.
func BenchmarkQuery(b *testing.B) {
	prototest.QueryBench(b, Protocol, protocols.Settings{Players: true, Rules: true}, prototest.UDP(b, idtechtest.Always(statusReply(`12 48 "Player"`, `-3 0 "Bot x"`, `0 999 ""`))))
}

// TestQstatCrossCheck queries one fake q2ded with quakestat -q2s (which sends
// `status 23`, an argument q2ded ignores) and with the Querier (`status`): both
// must agree on name, map, game, players, max and every client line. No Quake
// II server runs from a Debian package, so this fake is the reference.
func TestQstatCrossCheck(t *testing.T) {
	reply := []byte(oob + "print\n" +
		`\cheats\0\deathmatch\1\dmflags\16\game\ctf\gamename\baseq2\hostname\Cross Check Q2\mapname\q2ctf4\maxclients\12\needpass\0\version\R1Q2 b8012` + "\n" +
		`12 48 "Player One"` + "\n" + `-3 0 "Bot"` + "\n" + `0 999 ""` + "\n" + `5 20 "ip guy" "192.0.2.7:27901"` + "\n")
	addr := prototest.UDP(t, func(req []byte) [][]byte {
		if !strings.HasPrefix(string(req), oob+"status") {
			t.Errorf("unexpected request %q", req)
			return nil
		}
		return [][]byte{reply}
	})

	res, qs := prototest.QstatQuery(t, "-q2s", addr, Protocol, protocols.Settings{Players: true})
	if res.Game != qs.Game {
		t.Errorf("game %q, qstat %q", res.Game, qs.Game)
	}

	idtechtest.CheckQstatPlayers(t, idtechtest.QstatList(t, "-q2s", addr).Players, res.PlayerList, false)
}
