package quake3

import (
	"bytes"
	"fmt"
	"net/netip"
	"os"
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

// parseRequest returns the challenge of a `getstatus <challenge>\n` request.
func parseRequest(req []byte) (string, bool) { return challengeOf(req, "getstatus ") }

// parseInfoRequest returns the challenge of a `getinfo <challenge>\n` request.
func parseInfoRequest(req []byte) (string, bool) { return challengeOf(req, "getinfo ") }

func challengeOf(req []byte, cmd string) (string, bool) {
	s, ok := strings.CutPrefix(string(req), oob+cmd)
	if !ok || !strings.HasSuffix(s, "\n") {
		return "", false
	}
	return strings.TrimSuffix(s, "\n"), true
}

// statusReply builds the reply of a stock ioq3 server: the echoed challenge is
// the first key because the engine prepends new keys.
func statusReply(challenge string, players ...string) []byte {
	return statusKeys(challenge, "", players...)
}

// statusKeys is statusReply with more keys at the end of the info line.
func statusKeys(challenge, keys string, players ...string) []byte {
	var b bytes.Buffer
	b.WriteString(oob + "statusResponse\n")
	if challenge != "" {
		b.WriteString(`\challenge\` + challenge)
	}
	b.WriteString(`\sv_hostname\^1Fake ^7Arena\mapname\q3dm6\sv_maxclients\12\gamename\baseoa\version\ioq3 1.36\g_needpass\0` + keys + "\n")
	for _, p := range players {
		b.WriteString(p + "\n")
	}
	return b.Bytes()
}

// echo answers a well-formed getstatus with its challenge echoed, and getinfo
// with an infoResponse without g_humanplayers (ioq3 before 1.36).
func echo(req []byte, players ...string) [][]byte {
	return answer("", `\clients\`+fmt.Sprint(len(players)), nil, players...)(req)
}

// answer answers getstatus with lines (and extra info keys) and, when info is
// set, getinfo with the info string info (after the echoed challenge),
// counting the getinfo requests in getinfos when it is set.
func answer(keys, info string, getinfos *atomic.Int32, lines ...string) prototest.Handler {
	return func(req []byte) [][]byte {
		if c, ok := parseInfoRequest(req); ok {
			if getinfos != nil {
				getinfos.Add(1)
			}
			if info == "" {
				return nil
			}
			return [][]byte{[]byte(oob + "infoResponse\n" + `\challenge\` + c + info)}
		}
		if c, ok := parseRequest(req); ok {
			return [][]byte{statusKeys(c, keys, lines...)}
		}
		return nil
	}
}

// TestStatus runs the idTech status suite.
func TestStatus(t *testing.T) {
	var many []string
	for i := range 64 {
		many = append(many, fmt.Sprintf(`%d %d "%s"`, i, i+1, strings.Repeat("n", 200))) // no ping 0: no getinfo
	}
	idtechtest.RunStatus(t, idtechtest.Q3Frame(idtechtest.Status{
		Protocol: Protocol,
		Full: idtechtest.Full{
			Lines:   []string{`12 48 "^1Play^7er"`, `-3 0 "Sarge"`, `0 999 ""`},
			Handler: echo,
			Name:    "Fake Arena", Map: "q3dm6", Game: "baseoa", Version: "ioq3 1.36",
			Players: protocols.Known(3), MaxPlayers: protocols.Known(12), Password: protocols.FlagFalse,
			PlayerList: []protocols.Player{
				{Name: "Player", Score: protocols.Known(12), Ping: protocols.Known(48)},
				{Name: "Sarge", Score: protocols.Known(-3), Ping: protocols.Known(0)},
				{Name: "", Score: protocols.Known(0), Ping: protocols.Known(999)},
			},
			Rules: 7,
			// Sarge's ping 0 asks getinfo for a bot count; this server has none.
			Phases: []string{"info", "players"},
			Check: func(t *testing.T, _ []string, res *protocols.Result, tr *wire.Trace) {
				if len(res.Rules) == 0 || res.Rules[0].Key != "challenge" || len(tr.Packets) < 2 || tr.Attempts < 1 {
					t.Errorf("rules %q, packets = %d, attempts = %d", res.Rules, len(tr.Packets), tr.Attempts)
				}
			},
		},
		Unusable: map[string]idtechtest.Bad{
			"print":         {Reply: []byte(oob + "print\nno\n"), Want: wire.ErrMalformed},
			"getinfo reply": {Reply: []byte(oob + "infoResponse\n\\hostname\\x"), Want: wire.ErrMalformed},
		},
		Shapes: map[string]idtechtest.Shape{
			"01 prefix": {Reply: func(req []byte) []byte {
				c, _ := parseRequest(req)
				return append([]byte(oob+"\x01"), statusReply(c, `1 2 "a"`)[4:]...)
			}, Players: 1},
			"no final newline": {Reply: func(req []byte) []byte {
				c, _ := parseRequest(req)
				return bytes.TrimSuffix(statusReply(c, `1 2 "a"`, `3 4 "b"`), []byte("\n"))
			}, Players: 2},
			"16 KiB": {Reply: func(req []byte) []byte {
				c, _ := parseRequest(req)
				return statusReply(c, many...)
			}, Players: 64},
			// Servers that drop the challenge key (or send it empty, like Warsow) are accepted.
			"challenge missing": {Reply: func([]byte) []byte { return statusReply("", `1 2 "a"`) }, Players: 1},
			"challenge empty": {Reply: func([]byte) []byte {
				return append([]byte(oob+"statusResponse\n\\challenge\\\\sv_hostname\\W\n"), `1 2 "a" 3`...)
			}, Players: 1},
		},
		Contract: prototest.Contract{Name: "quake3", DefaultPort: 27960, Transport: "udp", WantName: "Fake Arena"},
	}, parseRequest, statusReply))
}

// BenchmarkQuery is a full getstatus exchange over loopback.
func BenchmarkQuery(b *testing.B) {
	prototest.QueryBench(b, Protocol, protocols.Settings{Players: true, Rules: true}, prototest.UDP(b, answer("", `\clients\3`, nil, `12 48 "^1Play^7er"`, `-3 0 "Sarge"`, `0 999 ""`)))
}

// TestBotsMeaning: Players counts humans wherever the server tells bots
// apart. ioq3/OpenArena's getstatus does not (bots are ping-0 lines, as a LAN
// player can be), so a status with ping-0 lines and no bot key is followed by
// one getinfo, whose clients - g_humanplayers are the bots. A server that
// ignores getinfo leaves players and bots unknown (some lines may be bots: no
// count rather than a wrong one) and fails the players phase, within the
// deadline: getinfo gets half of what is left.
func TestBotsMeaning(t *testing.T) {
	human, sarge, major := `5 48 "Human"`, `3 0 "Sarge"`, `1 0 "Major"`
	for _, c := range []struct {
		name         string
		keys, info   string // info "": getinfo unanswered
		lines        []string
		humans, bots int64
		marked       bool // the ping-0 lines are marked as bots
		getinfo      int32
		phases       string
	}{
		{"OpenArena: getinfo counts the bots", "", `\clients\3\g_humanplayers\1`, []string{human, sarge, major}, 1, 2, true, 1, "info:ok,players:ok"},
		{"only bots", "", `\clients\2\g_humanplayers\0`, []string{sarge, major}, 0, 2, true, 1, "info:ok,players:ok"},
		{"a LAN human at ping 0", "", `\clients\3\g_humanplayers\2`, []string{`1 0 "LAN"`, sarge, human}, 2, 1, false, 1, "info:ok,players:ok"},
		{"getinfo without g_humanplayers", "", `\clients\3`, []string{human, sarge, major}, 3, prototest.Unknown, false, 1, "info:ok,players:ok"},
		{"no ping-0 line: no getinfo", "", `\clients\1\g_humanplayers\0`, []string{human}, 1, prototest.Unknown, false, 0, "info:ok"},
		{"bots key: no getinfo", `\bots\2`, `\clients\3\g_humanplayers\3`, []string{human, sarge, major}, 1, 2, false, 0, "info:ok"},
		{"getinfo ignored", "", "", []string{sarge, human}, prototest.Unknown, prototest.Unknown, true, 1, "info:ok,players:timeout"},
	} {
		t.Run(c.name, func(t *testing.T) {
			var getinfos atomic.Int32
			addr := prototest.UDP(t, answer(c.keys, c.info, &getinfos, c.lines...))
			tr := wire.NewTrace()
			const deadline = time.Second
			start := time.Now()
			res, err := idtechtest.QueryWithin(t, Protocol, protocols.Settings{Players: true}, addr, deadline, tr)
			if el := time.Since(start); el > deadline+500*time.Millisecond+prototest.LagSince(start) {
				t.Errorf("returned after %v, deadline %v", el, deadline)
			}
			prototest.NoError(t, err)
			// CheckBots wants the marks only where the lines are the bots.
			prototest.CheckBots(t, res, c.humans, c.bots, c.marked)
			if n := getinfos.Load(); n != c.getinfo || len(res.PlayerList) != len(c.lines) || prototest.PhaseReasons(tr) != c.phases {
				t.Errorf("%d getinfo requests, %d players listed, phases %s", n, len(res.PlayerList), prototest.PhaseReasons(tr))
			}
		})
	}
}

// qstatServer is a fake ioq3 server for quakestat -q3s, which sends `getinfo\n`
// and, with -P or -R, `getstatus\n` (no challenge); the Querier sends
// `getstatus <challenge>\n`. Both replies describe the same server.
func qstatServer(t *testing.T, players []string) netip.AddrPort {
	const info = `\sv_hostname\^1Cross ^3Check^7!\mapname\oa_dm4\sv_maxclients\24\gamename\baseoa\version\ioq3 1.36\g_needpass\1`
	return prototest.UDP(t, func(req []byte) [][]byte {
		switch s := string(req); {
		case strings.HasPrefix(s, oob+"getinfo"):
			return [][]byte{fmt.Appendf(nil, oob+"infoResponse\n\\clients\\%d\\hostname\\^1Cross ^3Check^7!\\mapname\\oa_dm4\\sv_maxclients\\24\\gamename\\baseoa", len(players))}
		case strings.HasPrefix(s, oob+"getstatus"):
			reply := oob + "statusResponse\n"
			if c, ok := parseRequest(req); ok {
				reply += `\challenge\` + c
			}
			reply += info + "\n" + strings.Join(players, "\n") + "\n"
			return [][]byte{[]byte(reply)}
		}
		return nil
	})
}

func TestQstatCrossCheck(t *testing.T) {
	// Names use the codes both clients strip the same way (qstat knows no ^X RGB codes).
	players := []string{`12 48 "^1Play^7er"`, `-3 0 "^^00East"`, `0 999 ""`, `7 20 "^1^^a"`, `1 1 "war" 2`, `4 50 "x^*y^=z"`}
	addr := qstatServer(t, players)

	res, _ := prototest.QstatQuery(t, "-q3s", addr, Protocol, protocols.Settings{Players: true}, "-P", "-R")
	idtechtest.CheckQstatPlayers(t, idtechtest.QstatList(t, "-q3s", addr).Players, res.PlayerList, false)
}

// TestEncoding: `encoding: windows-1251` reads a Cyrillic server's name, its
// info and rules, player names and teams (testdata/status_windows1251.bin) in
// its code page, colour codes still stripped; by default the same bytes read
// as Latin-1, as they always have (the vector's expected result).
func TestEncoding(t *testing.T) {
	b, err := os.ReadFile("testdata/status_windows1251.bin")
	prototest.NoError(t, err)
	addr := prototest.UDP(t, func(req []byte) [][]byte {
		if _, ok := parseRequest(req); ok {
			return [][]byte{b}
		}
		return nil
	})
	const latin1 = "Ñåðâåð ¹1|^1Ñåðâåð ^7¹1|Ìîñêâà|Èãðîê/|Bob/Ñèíèå"
	prototest.QueryEncodings(t, Protocol, addr, "sv_hostname", "sv_location", map[string]string{
		"": latin1, "auto": latin1, "latin-1": latin1, "windows-1251": "Сервер №1|^1Сервер ^7№1|Москва|Игрок/|Bob/Синие",
	})
}

func TestOptionsErrors(t *testing.T) {
	prototest.OptionsErrors(t, Protocol, prototest.BadOptions{"encoding: koi8-r": `quake3 options: unknown encoding "koi8-r"`})
}
