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
	"reflect"
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
	prototest.NoError(t, err)
	mq := q.(*querier)
	mq.payload = func() int64 { return vectorPayload }
	return mq
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
		if chunk <= 0 {
			c.Write(reply)
		}
		for b, i := reply, 0; chunk > 0 && len(b) > 0; i++ {
			n := min(len(b), 1+i%chunk)
			if _, err := c.Write(b[:n]); err != nil {
				break
			}
			b = b[n:]
		}
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
	for _, name := range prototest.Names(t, ".hex") {
		if !strings.HasPrefix(name, "slp_") && name != "legacy_14_kick" {
			continue
		}
		t.Run(name, func(t *testing.T) {
			w := wantOf(t, name)
			segs := loadExchange(t, name+".hex")
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
			res, tr, err := prototest.QueryWithin(t, q, addr, 2*time.Second)
			prototest.NoError(t, err)
			// The result is the server side's, as TestVectors checks it.
			st, _ := readResponse(bufio.NewReader(bytes.NewReader(side(segs, false))))
			want := st.Result(true)
			if want.PhaseErrors = res.PhaseErrors; !reflect.DeepEqual(*res, *want) { // the phases are checked below
				t.Errorf("result\n%+v\nwant\n%+v", res, want)
			}
			got, phases := prototest.PhaseReasons(tr)+"|"+prototest.PhaseErrorReasons(res), "info:ok|"
			if w.Format == formatSLP {
				phases = map[string]string{"ok": "info:ok,ping:ok|", "mismatch": "info:ok,ping:mismatch|ping:mismatch"}[w.Pong]
			}
			if r := strings.TrimPrefix(prototest.PhaseErrorReasons(res), "ping:"); phases == "" && r != "" {
				phases = "info:ok,ping:" + r + "|ping:" + r // no pong: the status stands, the ping phase failed
			}
			if got != phases {
				t.Errorf("phases %s, want %s", got, phases)
			}
		})
	}
}

const statusJSON = `{"version":{"name":"Paper 1.21.1","protocol":767},"players":{"max":50,"online":2,"sample":[{"name":"§bAlice","id":"5c1f5a2e-7b1e-4a4e-9d0e-2f6b3c9a1d11"},{"name":"Bob","id":"6d2f5a2e-7b1e-4a4e-9d0e-2f6b3c9a1d12"}]},"description":{"text":"§6My §lServer","extra":[{"text":"\n  §7Line two"}]},"enforcesSecureChat":false,"favicon":"data:image/png;base64,` + "iVBORw0KGgo" + `"}`

// The status and the ping: a response split over many small segments (1-7
// bytes each) is reassembled; when the pong never comes the deadline ends the
// ping phase and the status stands; skip_ping asks none.
func TestQueryStatusAndPing(t *testing.T) {
	for _, c := range []struct {
		chunk int
		pong  bool
		opts  *Options
		d     time.Duration
		phase string // the result's phase errors, then the trace's
	}{
		{7, true, nil, 2 * time.Second, "[] | info:ok,ping:ok"},                          // split writes
		{0, false, nil, 300 * time.Millisecond, "[ping:timeout] | info:ok,ping:timeout"}, // no pong
		{0, false, &Options{SkipPing: true}, 2 * time.Second, "[] | info:ok"},            // skip ping
	} {
		addr := slpServer(t, statusFrame(statusJSON), c.chunk, c.pong, nil)
		res, tr, err := prototest.QueryWithin(t, testQuerier(t, protocols.Settings{Players: true}, c.opts), addr, c.d)
		prototest.CheckProbe(t, res, tr, err, `"My Server Line two" "" "Minecraft" "Paper 1.21.1" 2/50 bots ? pw 0 [Alice Bob] rules - info 5 partial `+c.phase+` skipped 0 log 0`)
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

// One byte a second: the deadline ends the probe.
func TestQueryDrip(t *testing.T) {
	prototest.DripTimesOut(t, Protocol, protocols.Settings{}, statusFrame(statusJSON))
}

// A server that is not 1.7+: a kick on the modern handshake (the first byte
// 0xFF) is decoded on the same connection, no ping; a close or a kick that is
// no status gets the legacy ping on a second connection.
func TestQueryLegacy(t *testing.T) {
	k14 := legacyKick("§1\x00127\x001.21.1\x00§aLegacy §lhello\x007\x0040")
	outdated := legacyKick("Outdated server!")
	for _, c := range []struct {
		name        string
		kick, other []byte // legacyServer's answers
		conns       int32
		want        string // format/name/version/players/max
		err         error
	}{
		{"1.7+ legacy handler kicks the handshake", k14, k14, 1, "legacy_1.4/Legacy hello/1.21.1/7/40", nil},
		{"1.4-1.6 closes on the handshake", legacyKick("§1\x0078\x001.6.4\x00A 1.6 server\x001\x0020"), nil, 2, "legacy_1.4/A 1.6 server/1.6.4/1/20", nil},
		{"beta kicks the handshake with an error", legacyKick("A beta server§0§8"), legacyKick("Protocol error"), 2, "legacy_beta/A beta server//0/8", nil},
		{"kicked twice", outdated, outdated, 2, "", wire.ErrServer},
		{"closed twice: port open, no Minecraft", nil, nil, 2, "", wire.ErrTruncated}, // Bedrock, a filtered proxy
	} {
		t.Run(c.name, func(t *testing.T) {
			var conns atomic.Int32
			addr := legacyServer(t, c.kick, c.other, &conns)
			res, tr, err := prototest.QueryWithin(t, testQuerier(t, protocols.Settings{Players: true}, nil), addr, 2*time.Second)
			if n := conns.Load(); n != c.conns {
				t.Errorf("%d connections, want %d", n, c.conns)
			}
			if c.err != nil {
				if !errors.Is(err, c.err) && !(c.err == wire.ErrTruncated && errors.Is(err, wire.ErrNetwork)) || len(tr.Phases) != 1 || !errors.Is(tr.Phases[0].Err, err) {
					t.Errorf("err = %v, phases %+v, want %v", err, tr.Phases, c.err)
				}
				if c.err == wire.ErrServer && !strings.Contains(err.Error(), "Outdated server!") {
					t.Errorf("err = %v, want the kick's message", err)
				}
				return
			}
			prototest.NoError(t, err)
			got := fmt.Sprintf("%s/%s/%s/%d/%d", res.Info[0].Value, res.Name, res.Version, res.Players.Value, res.MaxPlayers.Value)
			if res.Info[0].Key != "format" || got != c.want || !res.Players.Known || !res.MaxPlayers.Known || res.PlayerList != nil || prototest.PhaseNames(tr) != "info" {
				t.Errorf("result %s %+v, phases %s", got, res, prototest.PhaseNames(tr))
			}
			if c.conns == 2 && len(tr.Entries) == 0 {
				t.Errorf("the fallback is not logged")
			}
		})
	}
}

// Replies that are no status fail on the first connection, without a legacy
// retry; a frame length of 2^31-1 at once, before any allocation and without
// waiting for the bytes (the connection stays open).
func TestQueryBadReplies(t *testing.T) {
	for _, c := range []struct {
		reply string
		want  error
	}{
		{"HTTP/1.1 400 Bad Request\r\n\r\n", wire.ErrTruncated}, // 'H' reads as a 72-byte frame
		{"\x03\x05\x00\x00", wire.ErrMalformed},                 // packet id 5
		{string(statusFrame(`["not","object"]`)), wire.ErrMalformed},
		{"\x80\x80\x80\x80\x80\x80", wire.ErrMalformed},
		{"\xff\xff\xff\xff\x07\x00", wire.ErrTooLarge},
	} {
		var conns atomic.Int32
		addr := prototest.TCP(t, func(conn net.Conn) {
			conns.Add(1)
			r := bufio.NewReader(conn)
			if _, err := readStatusRequest(r); err == nil {
				io.WriteString(conn, c.reply)
			}
			if c.want == wire.ErrTooLarge {
				io.Copy(io.Discard, r)
			}
		})
		if _, _, err := prototest.QueryWithin(t, testQuerier(t, protocols.Settings{}, nil), addr, 2*time.Second); !errors.Is(err, c.want) || conns.Load() != 1 {
			t.Errorf("%q: err = %v after %d connections, want %v after 1", c.reply, err, conns.Load(), c.want)
		}
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
	prototest.NewOptions(t, newQuerier, []prototest.OptionsCase[Options]{
		{Options: Options{Host: strings.Repeat("h", 255), ProtocolVersion: 47}},
		{Options: Options{Host: strings.Repeat("h", 256)}, Bad: "host"},
		{Options: Options{Host: "bad\xff"}, Bad: "host"},
		{Options: Options{ProtocolVersion: -2}, Bad: "protocol_version"},
		{Options: Options{ProtocolVersion: int(overInt32)}, Bad: "protocol_version"}, // wraps negative where int is 32 bits: refused too
	})
	prototest.OptionsErrors(t, Protocol, nil)
	if q := prototest.MustNew(t, Protocol, protocols.Settings{}).(*querier); q.version != -1 || !q.ping {
		t.Errorf("defaults: %+v", q)
	}
}

// A server that accepts, reads and never answers gets one connection: a timeout,
// and no legacy retry. A closed port; a cancelled probe: the contract's TCP cases.
func TestQuerierContract(t *testing.T) {
	prototest.QuerierContract(t, prototest.Contract{
		Protocol: Protocol, Name: "minecraft", DefaultPort: 25565, Transport: "tcp",
	})
}

// BenchmarkQuery is a full exchange over loopback TCP: status and ping.
func BenchmarkQuery(b *testing.B) {
	prototest.QueryBench(b, Protocol, protocols.Settings{Players: true}, slpServer(b, statusFrame(benchJSON), 0, true, nil))
}
