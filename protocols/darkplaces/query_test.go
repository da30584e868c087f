package darkplaces

import (
	"bytes"
	"errors"
	"fmt"
	"net/netip"
	"strings"
	"testing"
	"time"

	"github.com/gameserver-exporter/gameserver_exporter/protocols"
	"github.com/gameserver-exporter/gameserver_exporter/protocols/internal/idtech/idtechtest"
	"github.com/gameserver-exporter/gameserver_exporter/protocols/prototest"
	"github.com/gameserver-exporter/gameserver_exporter/protocols/wire"
)

const oob = idtechtest.OOB

// parseRequest returns the challenge of a `getstatus <challenge>` request.
func parseRequest(req []byte) (string, bool) {
	return strings.CutPrefix(string(req), oob+"getstatus ")
}

// statusReply builds a reply the way NetConn_BuildStatusResponse does:
// clients counts every line, bots those with ping 0.
func statusReply(challenge string, players ...string) []byte {
	bots := 0
	for _, p := range players {
		if f := strings.Fields(p); len(f) > 1 && f[1] == "0" {
			bots++
		}
	}
	var b bytes.Buffer
	fmt.Fprintf(&b, oob+`statusResponse`+"\n"+`\gamename\Xonotic\modname\data\gameversion\20000\sv_maxclients\16\clients\%d\bots\%d\mapname\^1stormkeep\hostname\^x0F0Fake ^7DP\protocol\3\qcstatus\dm:0.8.6:P0:S12:F5:MXPM::score!!`, len(players), bots)
	if challenge != "" {
		b.WriteString(`\challenge\` + challenge)
	}
	b.WriteString("\n")
	for _, p := range players {
		b.WriteString(p + "\n")
	}
	return b.Bytes()
}

// echoServer answers every getstatus with its challenge echoed.
func echoServer(t testing.TB, players ...string) netip.AddrPort {
	return prototest.UDP(t, func(req []byte) [][]byte {
		c, ok := parseRequest(req)
		if !ok {
			return nil
		}
		return [][]byte{statusReply(c, players...)}
	})
}

// checkOneRequest checks that one getstatus was sent, without a newline after
// the challenge (the engine would echo it).
func checkOneRequest(t *testing.T, reqs []string, _ *protocols.Result, _ *wire.Trace) {
	t.Helper()
	c, ok := "", false
	if len(reqs) == 1 {
		c, ok = parseRequest([]byte(reqs[0]))
	}
	if !ok || len(c) != 26 || strings.ContainsAny(c, "\n\\;\"%/ ") {
		t.Errorf("requests %q", reqs)
	}
}

// When the list does not fit, the engine answers getstatus with an
// infoResponse: the counts are there, the list is a players phase error.
func TestQueryInfoResponseFallback(t *testing.T) {
	addr := prototest.UDP(t, func(req []byte) [][]byte {
		c, _ := parseRequest(req)
		return [][]byte{[]byte(oob + "infoResponse\n" + `\gamename\Xonotic\sv_maxclients\64\clients\60\bots\10\mapname\dz\hostname\Full\challenge\` + c + "\n" + c[len(c)-1:] + "\n")}
	})
	tr := wire.NewTrace()
	res, err := idtechtest.Query(t, Protocol, protocols.Settings{Players: true}, addr, tr)
	prototest.NoError(t, err)
	// clients 60, bots 10: 50 humans.
	if res.Players != protocols.Known(50) || res.Bots != protocols.Known(10) || res.PlayerList != nil ||
		len(res.PhaseErrors) != 1 || res.PhaseErrors[0].Phase != "players" || !errors.Is(res.PhaseErrors[0].Err, wire.ErrTruncated) {
		t.Errorf("result = %+v", res)
	}
	if len(tr.Entries) == 0 {
		t.Error("no trace note about the infoResponse")
	}
}

func TestRetriesWithin(t *testing.T) {
	for _, tc := range []struct {
		retries int
		left    time.Duration
		want    int
	}{
		{2, 300 * time.Millisecond, 0},
		{2, 2 * time.Second, 0},
		{2, 2300 * time.Millisecond, 1},
		{2, 5 * time.Second, 2},
		{9, 5 * time.Second, 3},
		{0, time.Minute, 0},
		{3, -time.Second, 0},
	} {
		if got := retriesWithin(tc.retries, tc.left); got != tc.want {
			t.Errorf("retriesWithin(%d, %v) = %d, want %d", tc.retries, tc.left, got, tc.want)
		}
	}
}

// TestStatus runs the idTech status suite. A lost reply is made up for by a
// re-send, but only as often as the time left allows with more than the
// server's 1 s flood block between sends: with 2.3 s and 5 retries
// configured, once; a silent server within 300 ms gets one request, as a
// re-send within 1 s would be ignored.
func TestStatus(t *testing.T) {
	idtechtest.RunStatus(t, idtechtest.Q3Frame(idtechtest.Status{
		Protocol: Protocol,
		Full: idtechtest.Full{
			Lines: []string{`12 48 1 "^1Play^7er"`, `-3 0 2 "[BOT]x"`},
			Name:  "Fake DP", Map: "stormkeep", Game: "Xonotic", Version: "0.8.6",
			// clients 2, bots 1: one human.
			Players: protocols.Known(1), MaxPlayers: protocols.Known(16), Bots: protocols.Known(1), Password: protocols.FlagUnknown,
			PlayerList: []protocols.Player{
				{Name: "Player", Score: protocols.Known(12), Ping: protocols.Known(48), Team: "1"},
				{Name: "[BOT]x", Score: protocols.Known(-3), Ping: protocols.Known(0), Team: "2", Bot: true},
			},
			Rules:  11,
			Phases: []string{"info"},
			Check:  checkOneRequest,
		},
		Unusable: map[string]idtechtest.Bad{
			"getchallenge": {Reply: []byte(oob + "challenge abc\x00"), Want: wire.ErrMalformed},
		},
		Shapes: map[string]idtechtest.Shape{
			// Old engines send no challenge key: accepted.
			"no challenge echo": {Reply: func([]byte) []byte { return statusReply("", `1 2 "a"`) }, Players: 1},
		},
		Contract: prototest.Contract{
			Name: "darkplaces", DefaultPort: 26000, Transport: "udp", WantName: "Fake DP",
			RetryRetries:   5,
			RetryDeadline:  2300 * time.Millisecond,
			RetryAttempts:  2,
			SilentAttempts: [2]int{1, 1},
		},
	}, parseRequest, statusReply))
}

// BenchmarkQuery is a full getstatus exchange over loopback (the fake has no
// flood block).
func BenchmarkQuery(b *testing.B) {
	prototest.QueryBench(b, Protocol, protocols.Settings{Players: true, Rules: true}, echoServer(b, `12 48 1 "^1Play^7er"`, `-3 0 2 "[BOT]x"`, `0 999 0 ""`))
}

// TestQstatCrossCheck queries one fake Xonotic server with quakestat
// -nexuizs, which sends `getinfo` then `getstatus` (no challenge), and with the
// Querier (`getstatus <challenge>`): both must agree on name, map, players
// (qstat counts the bots among them, the querier apart), max and every player
// line. The fake does not rate-limit (qstat itself would
// need a retry against the real engine: see realserver_test.go). Names use
// ^digit colours only, which both strip alike (qstat knows no ^xRGB).
func TestQstatCrossCheck(t *testing.T) {
	const info = `\gamename\Xonotic\modname\data\gameversion\20000\sv_maxclients\16\clients\4\bots\2\mapname\^2solarium\hostname\^1Cross ^3Check^7 DP\protocol\3\qcstatus\ctf:0.8.6:P0:S12:F5:MXPM::score!!`
	players := "10 0 1 \"[BOT]^1Red\"\n-666 25 0 \"watcher\"\n5 40 2 \"hu^5man\"\n3 0 2 \"[BOT]b\"\n"
	addr := prototest.UDP(t, func(req []byte) [][]byte {
		s := string(req)
		switch {
		case strings.HasPrefix(s, oob+"getinfo"):
			return [][]byte{[]byte(oob + "infoResponse\n" + info)}
		case strings.HasPrefix(s, oob+"getstatus"):
			reply := oob + "statusResponse\n" + info
			if c, ok := parseRequest(req); ok {
				reply += `\challenge\` + c
			}
			return [][]byte{[]byte(reply + "\n" + players)}
		}
		return nil
	})

	qs := prototest.QstatJSON(t, "-nexuizs", addr, "-P")
	res, err := idtechtest.Query(t, Protocol, protocols.Settings{Players: true}, addr, nil)
	prototest.NoError(t, err)
	if qs.Status != "online" || res.Name != qs.Name || res.Map != qs.Map || res.Game != qs.Game ||
		res.Players != protocols.Known(2) || res.Players.Value+res.Bots.Value != int64(qs.NumPlayers) || res.MaxPlayers != protocols.Known(int64(qs.MaxPlayers)) {
		t.Errorf("querier %q %q %q %+v+%+v %+v, qstat %+v", res.Name, res.Map, res.Game, res.Players, res.Bots, res.MaxPlayers, qs)
	}

	idtechtest.CheckQstatPlayers(t, idtechtest.QstatList(t, "-nexuizs", addr).Players, res.PlayerList, true)
}
