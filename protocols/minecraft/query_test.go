package minecraft

import (
	"bufio"
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"net"
	"net/netip"
	"strings"
	"sync/atomic"
	"testing"
	"testing/iotest"
	"time"

	"github.com/gameserver-exporter/gameserver_exporter/protocols"
	"github.com/gameserver-exporter/gameserver_exporter/protocols/prototest"
	"github.com/gameserver-exporter/gameserver_exporter/protocols/wire"
)

// testQuerier builds a querier with the vectors' ping payload.
func testQuerier(t testing.TB, s protocols.Settings, opts *Options) *querier {
	t.Helper()
	if opts != nil {
		s.Options = func(v any) error { *v.(*Options) = *opts; return nil }
	}
	q, err := newQuerier(s)
	if err != nil {
		t.Fatal(err)
	}
	mq := q.(*querier)
	mq.payload = func() int64 { return vectorPayload }
	return mq
}

func probe(t testing.TB, q *querier, addr netip.AddrPort, d time.Duration) (*protocols.Result, *wire.Trace, error) {
	t.Helper()
	return prototest.QueryWithin(t, q, addr, d)
}

// slpServer answers like a 1.7+ server: it reads the handshake and the status
// request, writes reply (in chunks of at most chunk bytes when chunk > 0), and
// echoes a ping when pong is set. Handshakes are sent on hs.
func slpServer(t testing.TB, reply []byte, chunk int, pong bool, hs chan<- sentHandshake) netip.AddrPort {
	return prototest.TCP(t, func(c net.Conn) {
		r := bufio.NewReader(c)
		h, err := readStatusRequest(r)
		if err != nil {
			t.Errorf("server: %v", err)
			return
		}
		if hs != nil {
			hs <- h
		}
		writeChunks(c, reply, chunk)
		if !pong {
			io.Copy(io.Discard, r) // keep the connection open until the client closes
			return
		}
		id, data, err := readPacket(r, 64)
		if err != nil || id != idPing {
			return
		}
		c.Write(append([]byte{9, idPing}, data...))
	})
}

func writeChunks(c net.Conn, b []byte, chunk int) {
	if chunk <= 0 {
		c.Write(b)
		return
	}
	for i := 0; len(b) > 0; i++ {
		n := min(len(b), 1+i%chunk)
		if _, err := c.Write(b[:n]); err != nil {
			return
		}
		b = b[n:]
	}
}

// legacyServer answers like a pre-1.7 server: a legacy ping (first byte 0xFE)
// gets kick; anything else gets other (nil: the connection is closed).
func legacyServer(t testing.TB, kick, other []byte, conns *atomic.Int32) netip.AddrPort {
	return prototest.TCP(t, func(c net.Conn) {
		conns.Add(1)
		var first [1]byte
		if _, err := io.ReadFull(c, first[:]); err != nil {
			return
		}
		if first[0] == 0xFE {
			c.Write(kick)
			return
		}
		c.Write(other)
	})
}

// TestQueryVectors replays the modern exchanges of testdata/ over loopback: the
// server checks every byte the client sends (the port patched to the fake
// server's) and answers with the recorded bytes.
func TestQueryVectors(t *testing.T) {
	for name, w := range vectors {
		if !strings.HasPrefix(name, "slp_") && name != "legacy_14_kick.hex" {
			continue
		}
		t.Run(name, func(t *testing.T) {
			segs := loadExchange(t, name)
			addr := prototest.TCP(t, func(c net.Conn) {
				port := uint16(c.LocalAddr().(*net.TCPAddr).Port)
				for _, s := range segs {
					if !s.client {
						c.Write(s.data)
						continue
					}
					want := bytes.Replace(s.data, []byte{0x63, 0xdd}, binary.BigEndian.AppendUint16(nil, port), 1)
					got := make([]byte, len(want))
					if _, err := io.ReadFull(c, got); err != nil || !bytes.Equal(got, want) {
						t.Errorf("client sent % x (%v), want % x", got, err, want)
						return
					}
				}
			})
			q := testQuerier(t, protocols.Settings{Players: true}, &Options{Host: "localhost"})
			res, tr, err := probe(t, q, addr, 2*time.Second)
			if err != nil {
				t.Fatal(err)
			}
			game := w.game
			if game == "" {
				game = "Minecraft"
			}
			if res.Name != w.name || res.Version != w.version || res.Game != game || res.Modded != w.modded {
				t.Errorf("name %q version %q game %q modded %v", res.Name, res.Version, res.Game, res.Modded)
			}
			checkCount(t, "players", res.Players, w.online)
			checkCount(t, "max", res.MaxPlayers, w.max)
			if w.format == formatSLP && len(res.PlayerList) != len(w.sample) {
				t.Errorf("player list %+v, want %q", res.PlayerList, w.sample)
			}
			phases := phaseNames(tr)
			switch {
			case w.format != formatSLP:
				if phases != "info" || res.PhaseErrors != nil {
					t.Errorf("phases %s, errors %v", phases, res.PhaseErrors)
				}
			case w.pong == "ok":
				if phases != "info ping" || res.PhaseErrors != nil {
					t.Errorf("phases %s, errors %v", phases, res.PhaseErrors)
				}
			default: // no pong, or a wrong one: the status stands, the ping phase failed
				if len(res.PhaseErrors) != 1 || res.PhaseErrors[0].Phase != "ping" || wire.Reason(res.PhaseErrors[0].Err) == "" {
					t.Errorf("phase errors %v", res.PhaseErrors)
				}
				if w.pong == "mismatch" && !errors.Is(res.PhaseErrors[0].Err, wire.ErrMismatch) {
					t.Errorf("ping error %v, want mismatch", res.PhaseErrors[0].Err)
				}
			}
		})
	}
}

func phaseNames(tr *wire.Trace) string {
	var s []string
	for _, p := range tr.Phases {
		s = append(s, p.Name)
	}
	return strings.Join(s, " ")
}

const statusJSON = `{"version":{"name":"Paper 1.21.1","protocol":767},"players":{"max":50,"online":2,"sample":[{"name":"§bAlice","id":"5c1f5a2e-7b1e-4a4e-9d0e-2f6b3c9a1d11"},{"name":"Bob","id":"6d2f5a2e-7b1e-4a4e-9d0e-2f6b3c9a1d12"}]},"description":{"text":"§6My §lServer","extra":[{"text":"\n  §7Line two"}]},"enforcesSecureChat":false,"favicon":"data:image/png;base64,` + "iVBORw0KGgo" + `"}`

// The response split over many small segments (1-7 bytes each) is reassembled.
func TestQuerySplitWrites(t *testing.T) {
	hs := make(chan sentHandshake, 1)
	addr := slpServer(t, statusFrame(statusJSON), 7, true, hs)
	res, tr, err := probe(t, testQuerier(t, protocols.Settings{Players: true}, nil), addr, 2*time.Second)
	if err != nil {
		t.Fatal(err)
	}
	if res.Name != "My Server Line two" || res.Version != "Paper 1.21.1" || res.Players != protocols.Known(2) || res.MaxPlayers != protocols.Known(50) {
		t.Errorf("result %+v", res)
	}
	if len(res.PlayerList) != 2 || res.PlayerList[0].Name != "Alice" || res.PlayerList[1].Name != "Bob" {
		t.Errorf("players %+v", res.PlayerList)
	}
	if phaseNames(tr) != "info ping" || res.PhaseErrors != nil {
		t.Errorf("phases %s %v", phaseNames(tr), res.PhaseErrors)
	}
	h := <-hs
	if h != (sentHandshake{Version: -1, Host: "127.0.0.1", Port: addr.Port(), Next: 1}) {
		t.Errorf("handshake %+v", h)
	}
}

// The same reassembly, deterministic: every read returns one byte.
func TestReadResponseOneByteReads(t *testing.T) {
	for _, b := range [][]byte{statusFrame(statusJSON), legacyKick("§1\x00127\x001.21\x00m\x001\x002")} {
		st, err := readResponse(bufio.NewReaderSize(iotest.OneByteReader(bytes.NewReader(b)), 16))
		if err != nil || st.Online != protocols.Known(2) && st.Max != protocols.Known(2) {
			t.Errorf("%+v, %v", st, err)
		}
	}
}

// A frame length of 2^31-1 is refused at once, before any allocation and
// without waiting for the bytes, and without a legacy retry.
func TestQueryHugeLength(t *testing.T) {
	var conns atomic.Int32
	addr := prototest.TCP(t, func(c net.Conn) {
		conns.Add(1)
		r := bufio.NewReader(c)
		if _, err := readStatusRequest(r); err != nil {
			return
		}
		c.Write([]byte{0xFF, 0xFF, 0xFF, 0xFF, 0x07, 0x00})
		io.Copy(io.Discard, r)
	})
	_, _, err := probe(t, testQuerier(t, protocols.Settings{}, nil), addr, 2*time.Second)
	if !errors.Is(err, wire.ErrTooLarge) || conns.Load() != 1 {
		t.Errorf("err = %v after %d connections, want too large after 1", err, conns.Load())
	}
}

// One byte a second: the deadline ends the probe.
func TestQueryDrip(t *testing.T) {
	addr := prototest.Drip(t, statusFrame(statusJSON))
	start := time.Now()
	if _, _, err := probe(t, testQuerier(t, protocols.Settings{}, nil), addr, 500*time.Millisecond); !errors.Is(err, wire.ErrTimeout) {
		t.Errorf("err = %v, want timeout", err)
	}
	if d := time.Since(start); d > 2*time.Second+prototest.LagSince(start) {
		t.Errorf("returned after %v", d)
	}
}

// A 1.7+ server whose legacy handler answers the modern handshake with a kick
// (the first byte 0xFF): decoded on the same connection, no ping.
func TestQueryLegacyKickOnHandshake(t *testing.T) {
	var conns atomic.Int32
	addr := prototest.TCP(t, func(c net.Conn) {
		conns.Add(1)
		c.Write(legacyKick("§1\x00127\x001.21.1\x00§aLegacy §lhello\x007\x0040"))
	})
	res, tr, err := probe(t, testQuerier(t, protocols.Settings{Players: true}, nil), addr, 2*time.Second)
	if err != nil {
		t.Fatal(err)
	}
	if res.Name != "Legacy hello" || res.Version != "1.21.1" || res.Players != protocols.Known(7) || res.MaxPlayers != protocols.Known(40) ||
		res.PlayerList != nil || conns.Load() != 1 || phaseNames(tr) != "info" {
		t.Errorf("result %+v, %d connections, phases %s", res, conns.Load(), phaseNames(tr))
	}
	if res.Info[0] != (protocols.KV{Key: "format", Value: formatLegacy14}) {
		t.Errorf("info %v", res.Info)
	}
}

// A 1.4-1.6 server closes on the modern handshake: the legacy ping on a second
// connection gets the status.
func TestQueryLegacyFallbackAfterClose(t *testing.T) {
	var conns atomic.Int32
	addr := legacyServer(t, legacyKick("§1\x0078\x001.6.4\x00A 1.6 server\x001\x0020"), nil, &conns)
	res, tr, err := probe(t, testQuerier(t, protocols.Settings{}, nil), addr, 2*time.Second)
	if err != nil {
		t.Fatal(err)
	}
	if res.Name != "A 1.6 server" || res.Version != "1.6.4" || res.Players != protocols.Known(1) || res.MaxPlayers != protocols.Known(20) {
		t.Errorf("result %+v", res)
	}
	if conns.Load() != 2 || phaseNames(tr) != "info" || len(tr.Entries) == 0 {
		t.Errorf("%d connections, phases %s, log %v", conns.Load(), phaseNames(tr), tr.Entries)
	}
}

// A beta server kicks the modern handshake with an error message, then answers
// the legacy ping in the beta format.
func TestQueryLegacyFallbackBeta(t *testing.T) {
	var conns atomic.Int32
	addr := legacyServer(t, legacyKick("A beta server§0§8"), legacyKick("Protocol error"), &conns)
	res, _, err := probe(t, testQuerier(t, protocols.Settings{}, nil), addr, 2*time.Second)
	if err != nil {
		t.Fatal(err)
	}
	if res.Name != "A beta server" || res.Version != "" || res.Players != protocols.Known(0) || res.MaxPlayers != protocols.Known(8) || conns.Load() != 2 {
		t.Errorf("result %+v after %d connections", res, conns.Load())
	}
}

func TestQueryKickedTwice(t *testing.T) {
	var conns atomic.Int32
	kick := legacyKick("Outdated server!")
	addr := legacyServer(t, kick, kick, &conns)
	_, tr, err := probe(t, testQuerier(t, protocols.Settings{}, nil), addr, 2*time.Second)
	if !errors.Is(err, wire.ErrServer) || !strings.Contains(err.Error(), "Outdated server!") || conns.Load() != 2 {
		t.Errorf("err = %v after %d connections", err, conns.Load())
	}
	if len(tr.Phases) != 1 || !errors.Is(tr.Phases[0].Err, wire.ErrServer) {
		t.Errorf("phases %+v", tr.Phases)
	}
}

// Port open, no Minecraft (Bedrock, a filtered proxy): closed twice.
func TestQueryClosedTwice(t *testing.T) {
	var conns atomic.Int32
	addr := prototest.TCP(t, func(net.Conn) { conns.Add(1) })
	_, _, err := probe(t, testQuerier(t, protocols.Settings{}, nil), addr, 2*time.Second)
	if !errors.Is(err, wire.ErrTruncated) && !errors.Is(err, wire.ErrNetwork) || conns.Load() != 2 {
		t.Errorf("err = %v after %d connections", err, conns.Load())
	}
}

func TestQueryBadReplies(t *testing.T) {
	for reply, want := range map[string]error{
		"HTTP/1.1 400 Bad Request\r\n\r\n":      wire.ErrTruncated, // 'H' reads as a 72-byte frame
		"\x03\x05\x00\x00":                      wire.ErrMalformed, // packet id 5
		string(statusFrame(`["not","object"]`)): wire.ErrMalformed,
		"\x80\x80\x80\x80\x80\x80":              wire.ErrMalformed,
	} {
		addr := prototest.TCP(t, func(c net.Conn) {
			if _, err := readStatusRequest(bufio.NewReader(c)); err == nil {
				io.WriteString(c, reply)
			}
		})
		if _, _, err := probe(t, testQuerier(t, protocols.Settings{}, nil), addr, 2*time.Second); !errors.Is(err, want) {
			t.Errorf("%q: err = %v, want %v", reply, err, want)
		}
	}
}

// The status came, the pong never does: the deadline ends the ping phase and
// the status is still returned.
func TestQueryPingTimeout(t *testing.T) {
	addr := slpServer(t, statusFrame(statusJSON), 0, false, nil)
	res, tr, err := probe(t, testQuerier(t, protocols.Settings{}, nil), addr, 300*time.Millisecond)
	if err != nil || res.Players != protocols.Known(2) {
		t.Fatalf("%+v, %v", res, err)
	}
	if len(res.PhaseErrors) != 1 || res.PhaseErrors[0].Phase != "ping" || !errors.Is(res.PhaseErrors[0].Err, wire.ErrTimeout) {
		t.Errorf("phase errors %v", res.PhaseErrors)
	}
	if phaseNames(tr) != "info ping" || tr.Phases[0].Err != nil || tr.Phases[1].Err == nil {
		t.Errorf("phases %+v", tr.Phases)
	}
}

func TestQuerySkipPing(t *testing.T) {
	addr := slpServer(t, statusFrame(statusJSON), 0, false, nil)
	res, tr, err := probe(t, testQuerier(t, protocols.Settings{}, &Options{SkipPing: true}), addr, 2*time.Second)
	if err != nil || res.PhaseErrors != nil || phaseNames(tr) != "info" {
		t.Errorf("%+v %v, phases %s", res, err, phaseNames(tr))
	}
}

func TestQueryHandshakeFields(t *testing.T) {
	for _, tc := range []struct {
		opts    *Options
		ctxHost string
		host    string
		version int32
	}{
		{nil, "", "127.0.0.1", -1},
		{&Options{Host: "play.example.com", ProtocolVersion: 47}, "", "play.example.com", 47},
		{nil, "mc.example.net", "mc.example.net", -1},
		{&Options{Host: "lobby.example.com"}, "mc.example.net", "lobby.example.com", -1},
	} {
		hs := make(chan sentHandshake, 1)
		addr := slpServer(t, statusFrame(`{"description":"x"}`), 0, true, hs)
		ctx := prototest.Context(t, 2*time.Second)
		target := protocols.Target{Addr: addr, Host: tc.ctxHost}
		if _, err := testQuerier(t, protocols.Settings{}, tc.opts).Query(ctx, target, nil); err != nil {
			t.Fatal(err)
		}
		if h := <-hs; h != (sentHandshake{Version: tc.version, Host: tc.host, Port: addr.Port(), Next: 1}) {
			t.Errorf("%+v: handshake %+v", tc, h)
		}
	}
}

// overInt32 is past the int32 range; a variable, so that the test compiles for
// 32-bit platforms (linux/arm), where 1<<31 overflows int.
var overInt32 = int64(1) << 31

func TestNew(t *testing.T) {
	for _, tc := range []struct {
		opts Options
		err  string
	}{
		{Options{Host: strings.Repeat("h", 256)}, "host"},
		{Options{Host: "bad\xff"}, "host"},
		{Options{ProtocolVersion: -2}, "protocol_version"},
		{Options{ProtocolVersion: int(overInt32)}, "protocol_version"}, // wraps negative where int is 32 bits: refused too
	} {
		_, err := newQuerier(protocols.Settings{Options: func(v any) error { *v.(*Options) = tc.opts; return nil }})
		if err == nil || !strings.Contains(err.Error(), tc.err) {
			t.Errorf("%+v: err = %v", tc.opts, err)
		}
	}
	if _, err := newQuerier(protocols.Settings{Options: func(any) error { return fmt.Errorf("unknown field") }}); err == nil {
		t.Error("an options error must fail")
	}
	q, err := newQuerier(protocols.Settings{})
	if err != nil || q.(*querier).version != -1 || !q.(*querier).ping {
		t.Errorf("defaults: %+v, %v", q, err)
	}
}

// A server that accepts, reads and never answers gets one connection: a timeout,
// and no legacy retry. A closed port; a cancelled probe: the contract's TCP cases.
func TestQuerierContract(t *testing.T) {
	prototest.QuerierContract(t, prototest.Contract{
		Protocol: Protocol, Name: "minecraft", DefaultPort: 25565, Transport: "tcp",
	})
}
