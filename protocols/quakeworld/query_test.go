package quakeworld

import (
	"bytes"
	"fmt"
	"strings"
	"testing"

	"github.com/gameserver-exporter/gameserver_exporter/protocols"
	"github.com/gameserver-exporter/gameserver_exporter/protocols/internal/idtech/idtechtest"
	"github.com/gameserver-exporter/gameserver_exporter/protocols/prototest"
	"github.com/gameserver-exporter/gameserver_exporter/protocols/wire"
)

const oob = idtechtest.OOB

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

// TestStatus runs the idTech status suite: mvdsv answers `status` with an
// 'n' datagram ending in a NUL, whatever options follow the command.
func TestStatus(t *testing.T) {
	var full []string
	for i := range 32 {
		full = append(full, fmt.Sprintf(`%d %d %d %d "%s" "base" 4 4`, i+1, i, i, i, strings.Repeat("n", 31)))
	}
	one := `1 2 3 4 "a" "" 0 0`
	idtechtest.RunStatus(t, idtechtest.Status{
		Protocol: Protocol,
		Reply:    func(_ []byte, lines ...string) []byte { return statusReply(lines...) },
		Line:     func(name string) string { return `1 2 3 4 "` + name + `" "" 0 0` },
		Full: idtechtest.Full{
			Lines: []string{`3 12 5 48 "` + "\xd0\xec\xe1\xf9\xe5\xf2" + `" "base" 4 4`, `7 -3 0 999 "newbie" "" 13 13`},
			Name:  "Fake QW Box", Map: "dm4", Game: "qw", Version: "MVDSV 0.35",
			Players: protocols.Known(2), MaxPlayers: protocols.Known(16), Password: protocols.FlagFalse,
			PlayerList: []protocols.Player{
				{Name: "Player", Score: protocols.Known(12), Ping: protocols.Known(48), Duration: 300, DurationKnown: true},
				{Name: "newbie", Score: protocols.Known(-3), Ping: protocols.Known(999), DurationKnown: true},
			},
			Rules:   6,
			Phases:  []string{"info"},
			Request: oob + "status\n",
		},
		Strays: func([]byte) [][]byte {
			return [][]byte{[]byte(oob + "c12345\x00"), []byte(oob + "n\nBad challenge.\n\x00"), []byte("junk")}
		},
		Unusable: map[string]idtechtest.Bad{
			"print":     {Reply: []byte(oob + "n\nBad challenge.\n\x00"), Want: wire.ErrMalformed},
			"challenge": {Reply: []byte(oob + "c42\x00"), Want: wire.ErrMalformed},
		},
		Broken: map[string]idtechtest.Bad{
			"print byte only": {Reply: []byte(oob + "n"), Want: wire.ErrTruncated},
			"blank text":      {Reply: []byte(oob + "n \r\n\x00"), Want: wire.ErrTruncated},
		},
		// A reply cut inside a name, one without the NUL, a 32-player one.
		Shapes: map[string]idtechtest.Shape{
			"cut": {Reply: func([]byte) []byte {
				return statusReply(one, `5 6 7 8 "b" "" 0 0`)[:len(statusReply(one))+8]
			}, Players: 2},
			"no NUL": {Reply: func([]byte) []byte { return bytes.TrimSuffix(statusReply(one), []byte{0}) }, Players: 1},
			"full":   {Reply: func([]byte) []byte { return statusReply(full...) }, Players: 32},
		},
		Contract: prototest.Contract{Name: "quakeworld", DefaultPort: 27500, Transport: "udp", WantName: "Fake QW Box"},
	})
}

// BenchmarkQuery is a full status exchange over loopback.
func BenchmarkQuery(b *testing.B) {
	prototest.QueryBench(b, Protocol, protocols.Settings{Players: true, Rules: true}, prototest.UDP(b, idtechtest.Always(statusReply(`3 12 5 48 "Player" "base" 4 4`, `7 -3 0 999 "newbie" "" 13 13`))))
}

// TestQstatCrossCheck queries one fake mvdsv with quakestat -qws, which sends
// `status 23` (serverinfo, players, spectators, teams), and with the Querier,
// which sends a plain `status`. The fake answers each the way mvdsv does, so
// both must agree on name, map, players (spectators excluded) and max.
func TestQstatCrossCheck(t *testing.T) {
	const info = `\hostname\Cross Check QW\map\aerowalk\maxclients\8\maxspectators\4\*gamedir\qw\*version\MVDSV 0.35` + "\n"
	addr := prototest.UDP(t, func(req []byte) [][]byte {
		switch string(req) {
		case oob + "status\n":
			return [][]byte{[]byte(oob + "n" + info +
				`1 12 5 48 "Player One" "base" 4 4` + "\n" +
				`7 -3 0 999 "newbie" "" 13 13` + "\n" +
				`9 0 61 10 "" "base" 0 0` + "\n\x00")}
		case oob + "status 23\n":
			return [][]byte{[]byte(oob + "n" + info +
				`1 12 5 48 "Player One" "base" 4 4 "red"` + "\n" +
				`4 -9999 3 -25 "\s\Watcher" "" 0 0 ""` + "\n" +
				`7 -3 0 999 "newbie" "" 13 13 "blue"` + "\n" +
				`9 0 61 10 "" "base" 0 0 ""` + "\n\x00")}
		}
		t.Errorf("unexpected request %q", req)
		return nil
	})

	res, qs := prototest.QstatQuery(t, "-qws", addr, Protocol, protocols.Settings{Players: true})
	if res.Game != qs.Game {
		t.Errorf("game %q, qstat %q", res.Game, qs.Game)
	}

	list := idtechtest.QstatList(t, "-qws", addr)
	// qstat lists spectators among its players (and counts them apart): skip them.
	var qp []idtechtest.QstatPlayer
	for _, p := range list.Players {
		if p.Score != -9999 && !strings.Contains(p.Name, `\`) {
			qp = append(qp, p)
		}
	}
	if list.NumSpectators != 1 || len(qp) != len(list.Players)-1 {
		t.Fatalf("qstat lists %d players (%d spectators): %+v", len(list.Players), list.NumSpectators, list.Players)
	}
	idtechtest.CheckQstatPlayers(t, qp, res.PlayerList, false)
}
