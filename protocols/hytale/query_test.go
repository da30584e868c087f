package hytale

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/netip"
	"strconv"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

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

// The plugin counts players and knows no bots; it reports no name, no
// password.
func TestQueryOK(t *testing.T) {
	for reply, want := range map[string]string{
		"OK 12 100\n": "12/100 bots ? pw 0 - rules - info 2 partial [] | info:ok skipped 0 log 0",
		"OK 0 20\r\n": "0/20 bots ? pw 0 - rules - info 2 partial [] | info:ok skipped 0 log 0",  // Windows host
		"OK 25 20\n":  "25/20 bots ? pw 0 - rules - info 2 partial [] | info:ok skipped 0 log 1", // over max: logged, not rejected
		"OK 3 10":     "3/10 bots ? pw 0 - rules - info 2 partial [] | info:ok skipped 0 log 0",  // no line terminator, ended by the close
	} {
		addr := pluginServer(t, func(req string) string {
			if req != "QUERY\n" {
				t.Errorf("request %q, want QUERY\\n", req)
			}
			return reply
		})
		res, tr, err := probeWith(t, addr, "flavours: [query]", 2*time.Second)
		prototest.CheckProbe(t, res, tr, err, `"" "" "" "" `+want)
		prototest.CheckBots(t, res, res.Players.Value, prototest.Unknown, true)
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

func info(res *protocols.Result, key string) string { return prototest.InfoOf(res)[key] }

// HyQuery's broken replies (its good ones: TestFlavourHyQuery).
func TestDecodeHyQuery(t *testing.T) {
	for file, want := range map[string]string{"hyquery_cut": "truncated", "hyquery_badmagic": "malformed", "hyquery_full_lies": "truncated"} {
		if _, err := decodeHyQuery(prototest.HexFile(t, file+".hex")); wire.Reason(err) != want {
			t.Errorf("%s: %v, want %s", file, err, want)
		}
	}
	if !bytes.Equal(hyRequest, []byte("HYQUERY\x00\x00")) {
		t.Errorf("request %q", hyRequest)
	}
}

// hyServer answers HyQuery's basic request with reply, its full one with full.
func hyServer(t testing.TB, reply []byte) netip.AddrPort {
	full := prototest.HexFile(t, "hyquery_full.hex")
	return prototest.UDP(t, func(req []byte) [][]byte {
		switch {
		case bytes.Equal(req, hyRequest):
			return [][]byte{[]byte("stray"), reply}
		case bytes.Equal(req, hyFullRequest):
			return [][]byte{full}
		}
		return nil
	})
}

// nitradoServer answers GET /Nitrado/Query with status and body.
func nitradoServer(t testing.TB, status int, body []byte) netip.AddrPort {
	_, addr := prototest.HTTP(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path != nitradoPath || r.Method != http.MethodGet {
			http.NotFound(w, r)
			return
		}
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(status)
		w.Write(body)
	}), false)
	return addr
}

func TestFlavourHyQuery(t *testing.T) {
	// Only the UDP side answers: the QUERY connection is refused, HyQuery answers.
	addr := hyServer(t, prototest.HexFile(t, "hyquery_basic.hex"))
	res, tr, err := probeWith(t, addr, "{}", 2*time.Second)
	prototest.NoError(t, err)
	if res.Name != "Orbis Testers" || res.Version != "2026.01.22" || res.Players != protocols.Known(5) || res.MaxPlayers != protocols.Known(100) ||
		res.Protocol != "hytale/hyquery" || res.QueryPort != 0 {
		t.Errorf("%+v", res)
	}
	prototest.CheckInfoHas(t, res, map[string]string{"port": "5520", "motd": "Welcome, all", "flavour": "hyquery"})
	if prototest.PhaseReasons(tr) != "info:ok" {
		t.Errorf("phases %+v", tr.Phases)
	}
	// players: true asks the full query, which lists them.
	res, _, err = prototest.QueryNew(t, Protocol, addr, protocols.Settings{Players: true}, 2*time.Second)
	if err != nil || prototest.PlayerNames(res) != "[Kweebec Trork]" || res.Players != protocols.Known(2) {
		t.Errorf("full: %v %+v", err, res)
	}
}

// Nitrado's failures: permissions that keep anonymous readers out (the reason
// says so), JSON without what the plugin sends. With every flavour on, the
// probe says why the plugin's reply failed, not what the line flavour made of
// the web server's HTTP answer to QUERY.
func TestFlavourNitrado(t *testing.T) {
	addr := nitradoServer(t, 403, []byte(`{"error":"forbidden"}`))
	_, _, err := probeWith(t, addr, "{}", 2*time.Second)
	if !errors.Is(err, wire.ErrServer) || !strings.Contains(err.Error(), "anonymous") {
		t.Errorf("403: %v", err)
	}
	addr = nitradoServer(t, 200, []byte(`{"hello":1}`))
	if _, _, err := probeWith(t, addr, "{}", 2*time.Second); wire.Reason(err) != "malformed" || !strings.Contains(err.Error(), "Basic, Server, Universe or Players") {
		t.Errorf("other JSON: %v", err)
	}
}

// A silent flavour does not take the whole deadline: HyQuery's silence leaves
// Nitrado the rest of it.
func TestFlavourSharesDeadline(t *testing.T) {
	addr := nitradoServer(t, 200, prototest.File(t, "nitrado.json"))
	silent := prototest.Silent(t)
	yml := "flavours: [hyquery, nitrado]\nhyquery_port: " + itoa(silent.Port())
	res, _, err := probeWith(t, addr, yml, time.Second)
	if err != nil || info(res, "flavour") != "nitrado" {
		t.Fatalf("%v %+v", err, res)
	}
	// The port that answered is exported when it is not the target's.
	yml = "flavours: [nitrado]\nnitrado_port: " + itoa(addr.Port())
	res, _, err = probeWith(t, netip.AddrPortFrom(addr.Addr(), 1), yml, time.Second)
	if err != nil || res.QueryPort != addr.Port() {
		t.Errorf("%v %+v", err, res)
	}
}

func TestOptionsErrors(t *testing.T) {
	prototest.OptionsErrors(t, Protocol, prototest.BadOptions{
		"flavours: [doom]":         `hytale flavours: unknown "doom"`,
		"flavours: [query, query]": `hytale flavours: "query" twice`,
	})
}

func itoa(p uint16) string { return strconv.Itoa(int(p)) }

// Every public shape of the Nitrado plugin's reply (see testdata/README.md).
func TestNitradoShapes(t *testing.T) {
	for file, want := range map[string]string{ // name/version/world/players/max [list]
		"nitrado_basic.json":      "Kweebec Village/2026.01.24-4f1e2d3c7//3/40 []",
		"nitrado_nouniverse.json": "Kweebec Village/2026.01.24-4f1e2d3c7//3/40 [Feran Outlander Zone Wanderer]",
		"nitrado_1_0_0.json":      "Kweebec Village/2026.01.10-ab2cd69ff/default/2/40 [Feran Outlander]",
		"nitrado.json":            "Orbis Testers/2026.01.22/Orbis/2/50 [Kweebec Trork]",
	} {
		res, _ := prototest.QueryOK(t, Protocol, nitradoServer(t, 200, prototest.File(t, file)), protocols.Settings{Players: true}, 2*time.Second)
		got := fmt.Sprintf("%s/%s/%s/%+v/%+v %s", res.Name, res.Version, res.Map, res.Players.Value, res.MaxPlayers.Value, prototest.PlayerNames(res))
		if got != want || !res.Players.Known || !res.MaxPlayers.Known || info(res, "flavour") != "nitrado" || res.Protocol != "hytale/nitrado" {
			t.Errorf("%s: %s %+v, want %s", file, got, res, want)
		}
	}
	if res, err := nitradoDecode(t, prototest.File(t, "nitrado_basic.json"), false); err != nil || info(res, "address") != "play.example.org:5520" {
		t.Errorf("address: %v %+v", err, res)
	}
	// A count given wins over the list (which may be cut by the plugin's view).
	res, err := nitradoDecode(t, []byte(`{"Basic":{"CurrentPlayers":7},"Players":[{"Name":"a"}]}`), true)
	if err != nil || res.Players != protocols.Known(7) || len(res.PlayerList) != 1 {
		t.Errorf("count and list: %v %+v", err, res)
	}
	for _, bad := range []string{`{"Players":"x"}`, `{"Players":{"u":1}}`, `{"Players":[1]}`} {
		if _, err := nitradoDecode(t, []byte(bad), true); wire.Reason(err) != "malformed" {
			t.Errorf("%s: %v", bad, err)
		}
	}
}

// nitradoDecode decodes a body as the Nitrado flavour does.
func nitradoDecode(t *testing.T, body []byte, players bool) (*protocols.Result, error) {
	t.Helper()
	var r nitradoReply
	if err := wire.DecodeJSON(prototest.JSONResponse(200, body), &r); err != nil {
		return nil, err
	}
	return r.result(players)
}

// FuzzDecodeFlavours: no HyQuery datagram or Nitrado body panics its decoder,
// every error names one reason, and counts are never negative.
func FuzzDecodeFlavours(f *testing.F) {
	for _, b := range prototest.HexFiles(f, "hyquery_") {
		f.Add(b)
	}
	prototest.SeedFiles(f, "nitrado*.json")
	f.Fuzz(func(t *testing.T, b []byte) {
		if in, err := decodeHyQuery(b); err != nil {
			prototest.CheckReason(t, err)
		} else if res := in.result(); res.Players.Value < 0 || res.MaxPlayers.Value < 0 || !utf8.ValidString(res.Name+res.Version) {
			t.Fatalf("%+v", res)
		}
		var r nitradoReply
		resp := &wire.HTTPResponse{Status: 200, Header: http.Header{}, Body: b}
		if err := wire.DecodeJSON(resp, &r); err != nil {
			return
		}
		res, err := r.result(true)
		if err != nil {
			if wire.Reason(err) != "malformed" {
				t.Fatalf("%v", err)
			}
			return
		}
		if res.Players.Value < 0 || res.MaxPlayers.Value < 0 || len(res.PlayerList) > maxNitradoList {
			t.Fatalf("%+v", res)
		}
	})
}
