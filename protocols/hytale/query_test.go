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

// probe queries the serverlistping flavour alone (flavours_test.go tries them all).
func probe(t testing.TB, addr netip.AddrPort, d time.Duration) (*protocols.Result, *wire.Trace, error) {
	t.Helper()
	return probeWith(t, addr, "flavours: [query]", d)
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
		res, tr, err := probe(t, addr, 2*time.Second)
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

func TestQueryServerError(t *testing.T) {
	addr := pluginServer(t, func(string) string { return "ERROR Invalid command\r\n" })
	_, tr, err := probe(t, addr, 2*time.Second)
	if !errors.Is(err, wire.ErrServer) || !strings.Contains(err.Error(), `"Invalid command"`) {
		t.Errorf("err = %v", err)
	}
	if len(tr.Phases) != 1 || !errors.Is(tr.Phases[0].Err, wire.ErrServer) {
		t.Errorf("phases = %+v", tr.Phases)
	}
}

// A rate-limited server answers on connect and closes without reading the
// request; the client must still report the server's message. Repeated so that
// both orders (reply before and after our write) occur.
func TestQueryEarlyReply(t *testing.T) {
	addr := prototest.TCP(t, func(c net.Conn) {
		io.WriteString(c, "ERROR Rate limit exceeded\n")
	})
	for range 20 {
		_, _, err := probe(t, addr, 2*time.Second)
		if !errors.Is(err, wire.ErrServer) || !strings.Contains(err.Error(), "Rate limit exceeded") {
			t.Fatalf("err = %v, want the server's rate-limit error", err)
		}
	}
}

func TestQueryMalformed(t *testing.T) {
	for reply, want := range map[string]error{
		"HTTP/1.1 400 Bad Request\r\n": wire.ErrMalformed,
		"OK 12\n":                      wire.ErrMalformed,
		"OK -1 2\n":                    wire.ErrMalformed,
		"\n":                           wire.ErrMalformed,
		"OK " + strings.Repeat("1", 300) + " 2\n": wire.ErrTooLarge, // one segment, newline inside
	} {
		addr := pluginServer(t, func(string) string { return reply })
		if _, _, err := probe(t, addr, 2*time.Second); !errors.Is(err, want) {
			t.Errorf("%q: err = %v, want %v", reply, err, want)
		}
	}
}

// A server that closes without a word.
func TestQueryClosedWithoutReply(t *testing.T) {
	addr := prototest.TCP(t, func(net.Conn) {})
	if _, _, err := probe(t, addr, 2*time.Second); err == nil || wire.Reason(err) == "" {
		t.Errorf("err = %v", err)
	} else if !errors.Is(err, wire.ErrTruncated) && !errors.Is(err, wire.ErrNetwork) {
		t.Errorf("err = %v, want truncated (or a reset)", err)
	}
}

// A server that never ends its line cannot make the probe buffer without bound.
func TestQueryEndlessLine(t *testing.T) {
	addr := prototest.TCP(t, func(c net.Conn) {
		chunk := []byte(strings.Repeat("A", 1024))
		for {
			if _, err := c.Write(chunk); err != nil {
				return
			}
		}
	})
	if _, _, err := probe(t, addr, 2*time.Second); !errors.Is(err, wire.ErrTooLarge) {
		t.Errorf("err = %v, want too large", err)
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
