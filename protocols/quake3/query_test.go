package quake3

import (
	"bytes"
	"errors"
	"fmt"
	"net/netip"
	"strings"
	"testing"
	"time"

	"github.com/gameserver-exporter/gameserver_exporter/protocols"
	"github.com/gameserver-exporter/gameserver_exporter/protocols/prototest"
	"github.com/gameserver-exporter/gameserver_exporter/protocols/wire"
)

const oob = "\xff\xff\xff\xff"

// parseRequest returns the challenge of a `getstatus <challenge>\n` request.
func parseRequest(req []byte) (string, bool) {
	s, ok := strings.CutPrefix(string(req), oob+"getstatus ")
	if !ok || !strings.HasSuffix(s, "\n") {
		return "", false
	}
	return strings.TrimSuffix(s, "\n"), true
}

// statusReply builds the reply of a stock ioq3 server: the echoed challenge is
// the first key because the engine prepends new keys.
func statusReply(challenge string, players ...string) []byte {
	var b bytes.Buffer
	b.WriteString(oob + "statusResponse\n")
	if challenge != "" {
		b.WriteString(`\challenge\` + challenge)
	}
	b.WriteString(`\sv_hostname\^1Fake ^7Arena\mapname\q3dm6\sv_maxclients\12\gamename\baseoa\version\ioq3 1.36\g_needpass\0` + "\n")
	for _, p := range players {
		b.WriteString(p + "\n")
	}
	return b.Bytes()
}

// echoServer answers every well-formed getstatus with its challenge echoed,
// and getinfo with an infoResponse without g_humanplayers (ioq3 before 1.36).
func echoServer(t testing.TB, players ...string) netip.AddrPort {
	return prototest.UDP(t, func(req []byte) [][]byte {
		if c, ok := parseInfoRequest(req); ok {
			return [][]byte{[]byte(oob + "infoResponse\n" + `\challenge\` + c + `\clients\` + fmt.Sprint(len(players)))}
		}
		c, ok := parseRequest(req)
		if !ok {
			return nil
		}
		return [][]byte{statusReply(c, players...)}
	})
}

// parseInfoRequest returns the challenge of a `getinfo <challenge>\n` request.
func parseInfoRequest(req []byte) (string, bool) {
	s, ok := strings.CutPrefix(string(req), oob+"getinfo ")
	if !ok || !strings.HasSuffix(s, "\n") {
		return "", false
	}
	return strings.TrimSuffix(s, "\n"), true
}

func newQuerier(t testing.TB, s protocols.Settings) protocols.Querier {
	t.Helper()
	q, err := Protocol.New(s)
	if err != nil {
		t.Fatal(err)
	}
	return q
}

func TestQueryEcho(t *testing.T) {
	addr := echoServer(t, `12 48 "^1Play^7er"`, `-3 0 "Sarge"`, `0 999 ""`)
	q := newQuerier(t, protocols.Settings{Players: true, Rules: true})
	tr := wire.NewTrace()
	res, err := q.Query(prototest.Context(t, 2*time.Second), protocols.At(addr), tr)
	if err != nil {
		t.Fatal(err)
	}
	if res.Name != "Fake Arena" || res.Map != "q3dm6" || res.Game != "baseoa" || res.Version != "ioq3 1.36" {
		t.Errorf("name/map/game/version = %q %q %q %q", res.Name, res.Map, res.Game, res.Version)
	}
	if res.Players != protocols.Known(3) || res.MaxPlayers != protocols.Known(12) || res.Bots.Known || res.Password != protocols.FlagFalse {
		t.Errorf("players %+v max %+v bots %+v password %v", res.Players, res.MaxPlayers, res.Bots, res.Password)
	}
	want := []protocols.Player{
		{Name: "Player", Score: protocols.Known(12), Ping: protocols.Known(48)},
		{Name: "Sarge", Score: protocols.Known(-3), Ping: protocols.Known(0)},
		{Name: "", Score: protocols.Known(0), Ping: protocols.Known(999)},
	}
	if fmt.Sprint(res.PlayerList) != fmt.Sprint(want) {
		t.Errorf("players = %+v, want %+v", res.PlayerList, want)
	}
	if len(res.Rules) != 7 || res.Rules[0].Key != "challenge" || len(res.Info) != 7 {
		t.Errorf("rules = %q, info = %q", res.Rules, res.Info)
	}
	// Sarge's ping 0 asks getinfo for a bot count; this server has none.
	if len(tr.Phases) != 2 || tr.Phases[0].Name != "info" || tr.Phases[0].Err != nil || tr.Phases[1].Name != "players" || tr.Phases[1].Err != nil {
		t.Errorf("phases = %+v", tr.Phases)
	}
	if len(tr.Packets) < 2 || tr.Attempts < 1 {
		t.Errorf("packets = %d, attempts = %d", len(tr.Packets), tr.Attempts)
	}
}

// The challenge is random per query: two queries never send the same token.
func TestQueryChallengeIsRandom(t *testing.T) {
	seen := make(chan string, 2)
	addr := prototest.UDP(t, func(req []byte) [][]byte {
		c, ok := parseRequest(req)
		if !ok || len(c) == 0 || len(c) > 128 || strings.ContainsAny(c, "\\\"; ") {
			t.Errorf("bad request %q", req)
			return nil
		}
		seen <- c
		return [][]byte{statusReply(c)}
	})
	q := newQuerier(t, protocols.Settings{})
	for range 2 {
		if _, err := q.Query(prototest.Context(t, 2*time.Second), protocols.At(addr), nil); err != nil {
			t.Fatal(err)
		}
	}
	if a, b := <-seen, <-seen; a == b {
		t.Errorf("same challenge twice: %q", a)
	}
}

func TestQuerySettingsOff(t *testing.T) {
	addr := echoServer(t, `1 2 "a"`)
	res, err := newQuerier(t, protocols.Settings{}).Query(prototest.Context(t, 2*time.Second), protocols.At(addr), nil)
	if err != nil {
		t.Fatal(err)
	}
	if res.PlayerList != nil || res.Rules != nil || res.Players != protocols.Known(1) || len(res.Info) == 0 {
		t.Errorf("result = %+v", res)
	}
}

// Servers that drop the challenge key (or send it empty, like Warsow) are accepted.
func TestQueryNoChallengeEcho(t *testing.T) {
	for name, reply := range map[string][]byte{
		"missing": statusReply("", `1 2 "a"`),
		"empty":   append([]byte(oob+"statusResponse\n\\challenge\\\\sv_hostname\\W\n"), `1 2 "a" 3`...),
	} {
		t.Run(name, func(t *testing.T) {
			addr := prototest.UDP(t, func([]byte) [][]byte { return [][]byte{reply} })
			res, err := newQuerier(t, protocols.Settings{Players: true}).Query(prototest.Context(t, 2*time.Second), protocols.At(addr), nil)
			if err != nil {
				t.Fatal(err)
			}
			if res.Players != protocols.Known(1) {
				t.Errorf("players = %+v", res.Players)
			}
		})
	}
}

// Stray datagrams (a reply with another challenge, an OOB print, junk) are
// skipped and the real reply is used, even when duplicated.
func TestQuerySkipsStrays(t *testing.T) {
	addr := prototest.UDP(t, func(req []byte) [][]byte {
		c, _ := parseRequest(req)
		return [][]byte{
			statusReply("someone-else", `9 9 "stray"`),
			[]byte(oob + "print\nrate limited\n"),
			[]byte("junk"),
			statusReply(c, `1 2 "real"`),
			statusReply(c, `1 2 "real"`),
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

// A server that answers, but never usably, fails with the reason of the last
// skipped datagram once the deadline passes, not with a bare timeout.
func TestQueryNoUsableReply(t *testing.T) {
	for name, tc := range map[string]struct {
		reply []byte
		want  error
	}{
		"wrong challenge": {statusReply("not-yours", `1 2 "a"`), wire.ErrMismatch},
		"garbage":         {[]byte("\x00\x01garbage"), wire.ErrMalformed},
		"print":           {[]byte(oob + "print\nno\n"), wire.ErrMalformed},
		"getinfo reply":   {[]byte(oob + "infoResponse\n\\hostname\\x"), wire.ErrMalformed},
	} {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			addr := prototest.UDP(t, func([]byte) [][]byte { return [][]byte{tc.reply} })
			start := time.Now()
			_, err := newQuerier(t, protocols.Settings{Retries: 1}).Query(prototest.Context(t, 300*time.Millisecond), protocols.At(addr), nil)
			if !errors.Is(err, tc.want) || errors.Is(err, wire.ErrTimeout) {
				t.Errorf("err = %v, want %v", err, tc.want)
			}
			if d := time.Since(start); d > 2*time.Second+prototest.LagSince(start) {
				t.Errorf("returned after %v", d)
			}
		})
	}
}

// A statusResponse that does not decode is the server's answer: fail at once.
func TestQueryBrokenReply(t *testing.T) {
	for name, tc := range map[string]struct {
		reply []byte
		want  error
	}{
		"keyword only": {[]byte(oob + "statusResponse"), wire.ErrTruncated},
		"no backslash": {[]byte(oob + "statusResponse\nhostname x\n"), wire.ErrMalformed},
	} {
		t.Run(name, func(t *testing.T) {
			addr := prototest.UDP(t, func([]byte) [][]byte { return [][]byte{tc.reply} })
			tr := wire.NewTrace()
			_, err := newQuerier(t, protocols.Settings{}).Query(prototest.Context(t, 5*time.Second), protocols.At(addr), tr)
			if !errors.Is(err, tc.want) {
				t.Errorf("err = %v, want %v", err, tc.want)
			}
			if len(tr.Phases) != 1 || !errors.Is(tr.Phases[0].Err, tc.want) {
				t.Errorf("phases = %+v", tr.Phases)
			}
		})
	}
}

// Replies with the 01 prefix, without the final newline, and a large one.
func TestQueryReplyShapes(t *testing.T) {
	var many []string
	for i := range 64 {
		many = append(many, fmt.Sprintf(`%d %d "%s"`, i, i+1, strings.Repeat("n", 200))) // no ping 0: no getinfo
	}
	for name, tc := range map[string]struct {
		reply   func(c string) []byte
		players int64
	}{
		"01 prefix": {func(c string) []byte {
			return append([]byte(oob+"\x01"), statusReply(c, `1 2 "a"`)[4:]...)
		}, 1},
		"no final newline": {func(c string) []byte {
			return bytes.TrimSuffix(statusReply(c, `1 2 "a"`, `3 4 "b"`), []byte("\n"))
		}, 2},
		"16 KiB": {func(c string) []byte { return statusReply(c, many...) }, 64},
	} {
		t.Run(name, func(t *testing.T) {
			addr := prototest.UDP(t, func(req []byte) [][]byte {
				c, _ := parseRequest(req)
				return [][]byte{tc.reply(c)}
			})
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
		Protocol: Protocol, Name: "quake3", DefaultPort: 27960, Transport: "udp",
		Answer: func(req []byte) [][]byte {
			c, _ := parseRequest(req)
			return [][]byte{statusReply(c)}
		},
		WantName: "Fake Arena",
	})
}
