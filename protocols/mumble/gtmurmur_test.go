package mumble

import (
	"bufio"
	"errors"
	"io"
	"net"
	"net/netip"
	"strings"
	"testing"
	"time"

	"github.com/gameserver-exporter/gameserver_exporter/protocols"
	"github.com/gameserver-exporter/gameserver_exporter/protocols/prototest"
	"github.com/gameserver-exporter/gameserver_exporter/protocols/wire"
)

func cvp(t testing.TB) string { return string(prototest.File(t, "gtmurmur_default.json")) }

// gtServer answers the line "json" with doc, then keeps the connection open
// unless closeAfter.
func gtServer(t testing.TB, doc string, closeAfter bool) netip.AddrPort {
	return prototest.TCP(t, func(c net.Conn) {
		line, err := bufio.NewReader(c).ReadString('\n')
		if err != nil || strings.TrimSpace(line) != "json" {
			return
		}
		io.WriteString(c, doc)
		if !closeAfter {
			io.Copy(io.Discard, c)
		}
	})
}

// gtProbe queries addr (the plugin) with the target naming the voice port.
func gtProbe(t testing.TB, addr netip.AddrPort, players bool, d time.Duration) (*protocols.Result, *wire.Trace, error) {
	t.Helper()
	s := protocols.Settings{Players: players, Options: prototest.OptionsOf(Options{GTmurmur: true, QueryPort: int(addr.Port())})}
	return prototest.QueryNew(t, Protocol, netip.AddrPortFrom(addr.Addr(), 64738), s, d)
}

// A voice server has no bots: the users of every channel are the players.
func TestGTmurmur(t *testing.T) {
	for _, c := range []struct {
		closeAfter, players bool
		list                string
	}{{false, true, "[Alice Bob Carol ☂ Dave]"}, {true, true, "[Alice Bob Carol ☂ Dave]"}, {false, false, "-"}} {
		res, tr, err := gtProbe(t, gtServer(t, cvp(t), c.closeAfter), c.players, 2*time.Second)
		prototest.CheckProbe(t, res, tr, err, `"GT Test Mumble" "" "" "" 4/50 bots ? pw 0 `+c.list+` rules - info 6 partial [] | info:ok skipped 0 log 0`)
		prototest.CheckBots(t, res, 4, prototest.Unknown, true)
		prototest.CheckUTF8(t, res)
		if c.players && (res.Uptime != protocols.SpanSeconds(3600) || !res.PlayerList[0].DurationKnown || res.PlayerList[0].Duration != 3600 || res.PlayerList[2].DurationKnown) {
			t.Errorf("uptime %+v, players %+v", res.Uptime, res.PlayerList)
		}
	}
}

func TestGTmurmurFailures(t *testing.T) {
	deep := strings.Repeat(`{"name":"c","channels":[`, maxDepth+2) + strings.Repeat(`]}`, maxDepth+2)
	for _, c := range []struct {
		name, doc string
		close     bool
		reason    string
	}{
		{"not JSON", "<html>nope</html>", true, "malformed"},
		{"no root", `{"name":"x"}`, true, "malformed"},
		{"cut", cvp(t)[:100], true, "truncated"},
		{"cut, then silence", cvp(t)[:100], false, "timeout"},
		{"too deep", `{"name":"x","root":` + deep + `}`, true, "too_large"},
		{"too long", `{"name":"` + strings.Repeat("x", maxCVP) + `"}`, true, "too_large"},
	} {
		t.Run(c.name, func(t *testing.T) {
			d := 400 * time.Millisecond
			if len(c.doc) > maxCVP {
				d = 5 * time.Second
			}
			_, _, err := gtProbe(t, gtServer(t, c.doc, c.close), true, d)
			if wire.Reason(err) != c.reason {
				t.Errorf("err %v, want %s", err, c.reason)
			}
		})
	}
	if _, _, err := gtProbe(t, prototest.ClosedTCPPort(t), false, time.Second); !errors.Is(err, wire.ErrRefused) {
		t.Errorf("closed port: %v", err)
	}
	silent := prototest.TCP(t, func(c net.Conn) { io.Copy(io.Discard, c) })
	if _, _, err := gtProbe(t, silent, false, 300*time.Millisecond); !errors.Is(err, wire.ErrTimeout) {
		t.Errorf("silent: %v", err)
	}
}

func TestGTmurmurOptions(t *testing.T) {
	prototest.OptionsErrors(t, Protocol, prototest.BadOptions{
		"query_port: 27800":                   "query_port is the GTmurmur plugin's",
		"{gtmurmur: true, query_port: 70000}": "query_port",
	})
	if q := prototest.MustNew(t, Protocol, protocols.Settings{Options: prototest.OptionsOf(Options{GTmurmur: true})}); q.(*gtQuerier).queryPort != 27800 {
		t.Errorf("%+v", q)
	}
}

func FuzzDecodeCVP(f *testing.F) {
	f.Add([]byte(cvp(f)))
	f.Add([]byte(`{"root":{"channels":[{"users":[{}]}]}}`))
	f.Fuzz(func(t *testing.T, b []byte) {
		res, err := decodeCVP(b, true)
		if err != nil {
			prototest.CheckReason(t, err)
			return
		}
		if res.Players.Value != int64(len(res.PlayerList)) || res.Players.Value > maxUsers {
			t.Fatalf("%+v", res)
		}
	})
}
