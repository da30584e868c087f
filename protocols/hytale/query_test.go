package hytale

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

// pluginServer behaves like the plugin: read one line, answer it, close.
func pluginServer(t testing.TB, answer func(req string) string) netip.AddrPort {
	return prototest.TCP(t, func(c net.Conn) {
		req, err := bufio.NewReader(c).ReadString('\n')
		if err != nil {
			return
		}
		io.WriteString(c, answer(req))
	})
}

// probeWith queries with the module block yml.
func probeWith(t testing.TB, addr netip.AddrPort, yml string, d time.Duration) (*protocols.Result, *wire.Trace, error) {
	t.Helper()
	return prototest.QueryNew(t, Protocol, addr, protocols.Settings{Options: prototest.OptionsYAML(yml)}, d)
}

func TestQueryOK(t *testing.T) {
	for reply, want := range map[string][2]int64{
		"OK 12 100\n": {12, 100},
		"OK 0 20\r\n": {0, 20},  // Windows host
		"OK 25 20\n":  {25, 20}, // over max: logged, not rejected
		"OK 3 10":     {3, 10},  // no line terminator, ended by the close
	} {
		addr := pluginServer(t, func(req string) string {
			if req != "QUERY\n" {
				t.Errorf("request %q, want QUERY\\n", req)
			}
			return reply
		})
		res, tr, err := probeWith(t, addr, "flavours: [query]", 2*time.Second)
		if err != nil {
			t.Fatalf("%q: %v", reply, err)
		}
		// The plugin counts players and knows no bots.
		prototest.CheckBots(t, res, want[0], prototest.Unknown, true)
		if res.MaxPlayers != protocols.Known(want[1]) || res.Name != "" || res.Password != protocols.FlagUnknown || len(res.Info) != 2 {
			t.Errorf("%q: fields the protocol does not report are set: %+v", reply, res)
		}
		if len(tr.Phases) != 1 || tr.Phases[0].Name != "info" || tr.Phases[0].Err != nil {
			t.Errorf("phases = %+v", tr.Phases)
		}
	}
}

// A rate-limited server answers on connect and closes without reading the
// request; the client must still report the server's message, with every
// flavour on too (the plugin's ERROR line is the most telling failure, over
// the refused UDP and HTTP flavours). Repeated so that both orders (reply
// before and after our write) occur.
func TestQueryEarlyReply(t *testing.T) {
	addr := prototest.TCP(t, func(c net.Conn) {
		io.WriteString(c, "ERROR Rate limit exceeded\n")
	})
	for i := range 20 {
		_, _, err := probeWith(t, addr, []string{"flavours: [query]", "{}"}[i%2], 2*time.Second)
		if !errors.Is(err, wire.ErrServer) || !strings.Contains(err.Error(), "Rate limit exceeded") {
			t.Fatalf("err = %v, want the server's rate-limit error", err)
		}
	}
}

// Replies that are no count, in one failed phase: the plugin's ERROR line
// (its message quoted), lines that do not parse, a close without a word, a
// line that never ends (the probe must not buffer it without bound).
func TestQueryFailures(t *testing.T) {
	reply := func(s string) func(net.Conn) {
		return func(c net.Conn) { prototest.DrainLine(c); io.WriteString(c, s) }
	}
	for _, c := range []struct {
		name   string
		server func(net.Conn)
		want   error
		says   string
	}{
		{"error line", reply("ERROR Invalid command\r\n"), wire.ErrServer, `"Invalid command"`},
		{"http", reply("HTTP/1.1 400 Bad Request\r\n"), wire.ErrMalformed, ""},
		{"one count", reply("OK 12\n"), wire.ErrMalformed, ""},
		{"negative", reply("OK -1 2\n"), wire.ErrMalformed, ""},
		{"blank", reply("\n"), wire.ErrMalformed, ""},
		{"long line", reply("OK " + strings.Repeat("1", 300) + " 2\n"), wire.ErrTooLarge, ""}, // one segment, newline inside
		{"closed without a word", func(net.Conn) {}, wire.ErrTruncated, ""},
		{"endless line", func(c net.Conn) {
			for chunk := []byte(strings.Repeat("A", 1024)); ; {
				if _, err := c.Write(chunk); err != nil {
					return
				}
			}
		}, wire.ErrTooLarge, ""},
	} {
		_, tr, err := probeWith(t, prototest.TCP(t, c.server), "flavours: [query]", 2*time.Second)
		// A close may reach the client as a reset.
		if !errors.Is(err, c.want) && !(c.want == wire.ErrTruncated && errors.Is(err, wire.ErrNetwork)) || !strings.Contains(err.Error(), c.says) ||
			len(tr.Phases) != 1 || !errors.Is(tr.Phases[0].Err, err) {
			t.Errorf("%s: err = %v, phases %+v; want %v", c.name, err, tr.Phases, c.want)
		}
	}
}

// One byte a second: the deadline ends the probe, not the peer.
func TestQueryDrip(t *testing.T) {
	prototest.DripTimesOut(t, Protocol, protocols.Settings{Options: prototest.OptionsYAML("flavours: [query]")}, []byte("OK 1 2\n"))
}

// A server that accepts, reads and never answers; a closed port; a cancelled
// probe: the contract's TCP cases. With every flavour a silent TCP server gets
// two connections (the QUERY line, then Nitrado's HTTP request; HyQuery's
// datagram goes to the same port's UDP side).
func TestQuerierContract(t *testing.T) {
	prototest.QuerierContract(t, prototest.Contract{
		Protocol: Protocol, Name: "hytale", DefaultPort: 8193, Transport: "tcp",
		SilentAttempts: [2]int{1, 2},
	})
}

// BenchmarkQuery is a full exchange over loopback TCP, one connection per query.

func BenchmarkQuery(b *testing.B) {
	prototest.QueryBench(b, Protocol, protocols.Settings{}, pluginServer(b, func(string) string { return "OK 12 100\n" }))
}
