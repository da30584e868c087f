package openttd

import (
	"errors"
	"io"
	"net"
	"net/netip"
	"testing"
	"time"

	"github.com/gameserver-exporter/gameserver_exporter/protocols"
	"github.com/gameserver-exporter/gameserver_exporter/protocols/prototest"
	"github.com/gameserver-exporter/gameserver_exporter/protocols/wire"
)

// gameServer behaves like OpenTTD: read PACKET_CLIENT_GAME_INFO, write the
// reply in chunks of the given size (0: at once), close.
func gameServer(t testing.TB, reply []byte, chunk int) netip.AddrPort {
	return prototest.TCP(t, func(c net.Conn) {
		req := make([]byte, 3)
		if _, err := io.ReadFull(c, req); err != nil {
			return
		}
		if string(req) != string(request()) {
			t.Errorf("request % x, want % x", req, request())
			return
		}
		step := chunk
		if step == 0 {
			step = len(reply)
		}
		for rest := reply; len(rest) > 0; rest = rest[min(step, len(rest)):] {
			if _, err := c.Write(rest[:min(step, len(rest))]); err != nil {
				return
			}
		}
	})
}

func TestQueryRoundTrip(t *testing.T) {
	prototest.HexVectors(t, func(t *testing.T, b []byte, w want) {
		if w.Error != "" {
			return // TestQueryErrors
		}
		for _, chunk := range []int{0, 1} { // whole, and one byte per segment
			res, tr, err := prototest.QueryNew(t, Protocol, gameServer(t, b, chunk), protocols.Settings{Rules: true}, 2*time.Second)
			if err != nil {
				t.Fatalf("chunk %d: %v", chunk, err)
			}
			checkResult(t, res, w)
			if len(res.Rules) < len(res.Info) {
				t.Errorf("rules %v", res.Rules)
			}
			if len(tr.Phases) != 1 || tr.Phases[0].Name != "info" || tr.Phases[0].Err != nil {
				t.Errorf("phases = %+v", tr.Phases)
			}
		}
	})
}

func TestQueryRealCapture(t *testing.T) {
	addr := gameServer(t, prototest.Capture(t, "openttd_openttd_openttd-tcp-gameinfo.resp.bin"), 0)
	res, _, err := prototest.QueryNew(t, Protocol, addr, protocols.Settings{}, 2*time.Second)
	if err != nil || res.Name != "RealWorld OpenTTD" || res.MaxPlayers != protocols.Known(12) || res.Rules != nil {
		t.Fatalf("%+v %v", res, err)
	}
}

func TestQueryErrors(t *testing.T) {
	for _, tc := range []struct {
		name  string
		reply []byte
		want  error
	}{
		{"server_full", prototest.HexFile(t, "server_full.hex"), wire.ErrServer},
		{"version_8", prototest.HexFile(t, "bad_version8.hex"), wire.ErrMalformed},
		{"field_missing", prototest.HexFile(t, "bad_truncated.hex"), wire.ErrTruncated},
		{"closed_in_header", []byte{0x37}, wire.ErrTruncated},
		{"closed_in_body", prototest.HexFile(t, "v6_trailing.hex")[:20], wire.ErrTruncated},
		{"size_over_cap", []byte{0xFF, 0xFF, 6, 0, 0, 0}, wire.ErrTooLarge},
		{"size_below_header", []byte{1, 0, 6}, wire.ErrMalformed},
		{"http_server", []byte("HTTP/1.1 400 Bad Request\r\n\r\n"), wire.ErrTruncated}, // "HT" read as a 21576-byte size
		{"other_type", prototest.HexFile(t, "bad_type.hex"), wire.ErrMalformed},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, tr, err := prototest.QueryNew(t, Protocol, gameServer(t, tc.reply, 0), protocols.Settings{}, 2*time.Second)
			if !errors.Is(err, tc.want) {
				t.Fatalf("err = %v, want %v", err, tc.want)
			}
			if len(tr.Phases) != 1 || !errors.Is(tr.Phases[0].Err, tc.want) {
				t.Errorf("phases = %+v", tr.Phases)
			}
		})
	}
}

// A full server writes PACKET_SERVER_FULL on accept and closes without reading.
func TestQueryFullOnAccept(t *testing.T) {
	full := prototest.HexFile(t, "server_full.hex")
	addr := prototest.TCP(t, func(c net.Conn) { c.Write(full) })
	for range 10 { // both orders of our write and the server's close
		if _, _, err := prototest.QueryNew(t, Protocol, addr, protocols.Settings{}, 2*time.Second); !errors.Is(err, wire.ErrServer) && !errors.Is(err, wire.ErrNetwork) {
			t.Fatalf("err = %v, want server error", err)
		}
	}
}

func TestQueryClosedWithoutReply(t *testing.T) {
	addr := prototest.TCP(t, func(net.Conn) {})
	if _, _, err := prototest.QueryNew(t, Protocol, addr, protocols.Settings{}, 2*time.Second); !errors.Is(err, wire.ErrTruncated) && !errors.Is(err, wire.ErrNetwork) {
		t.Errorf("err = %v, want truncated (or a reset)", err)
	}
}

// One byte a second: the deadline ends the probe, not the peer.
func TestQueryDrip(t *testing.T) {
	prototest.DripTimesOut(t, Protocol, protocols.Settings{}, prototest.HexFile(t, "v1_minimal.hex"))
}

// A server that accepts, reads and never answers; a closed port; a cancelled
// probe: the contract's TCP cases.
func TestQuerierContract(t *testing.T) {
	prototest.QuerierContract(t, prototest.Contract{
		Protocol: Protocol, Name: "openttd", DefaultPort: 3979, Transport: "tcp",
	})
}

// BenchmarkQuery is a full exchange over loopback TCP, one connection per query.
func BenchmarkQuery(b *testing.B) {
	prototest.QueryBench(b, Protocol, protocols.Settings{}, gameServer(b, prototest.HexFile(b, "v6_password_newgrf.hex"), 0))
}
