package quake3

import (
	"bytes"
	"fmt"
	"strings"
	"sync/atomic"
	"testing"

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
