package starmade

import (
	"bytes"
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

// server answers the status command (and only it) with answer.
func server(t testing.TB, answer []byte) netip.AddrPort {
	return prototest.TCP(t, func(c net.Conn) {
		req := make([]byte, len(request))
		if _, err := io.ReadFull(c, req); err != nil || !bytes.Equal(req, request) {
			return
		}
		c.Write(answer)
		io.Copy(io.Discard, c)
	})
}

func TestQuery(t *testing.T) {
	res, tr := prototest.QueryOK(t, Protocol, server(t, vec(t, "status_default")), protocols.Settings{}, 2*time.Second)
	if res.Name != "StarMade Testers" || res.Players != protocols.Known(3) || res.MaxPlayers != protocols.Known(32) || res.Version != "0.199" {
		t.Errorf("%+v", res)
	}
	prototest.CheckBots(t, res, 3, prototest.Unknown, false)
	if len(tr.Phases) != 1 || tr.Phases[0].Name != "info" || tr.Phases[0].Err != nil {
		t.Errorf("phases %+v", tr.Phases)
	}
}

func TestQueryFailures(t *testing.T) {
	good := vec(t, "status_default")
	for _, c := range []struct {
		name   string
		answer []byte
		d      time.Duration
		reason string
	}{
		{"cut in the header", good[:6], 2 * time.Second, "truncated"},
		{"cut in the body", good[:40], 2 * time.Second, "truncated"},
		{"huge length", append([]byte{0x7f, 0xff, 0xff, 0xff}, good[4:]...), 2 * time.Second, "too_large"},
		{"broken parameters", vec(t, "err_wrong_types"), 2 * time.Second, "malformed"},
	} {
		t.Run(c.name, func(t *testing.T) {
			addr := prototest.TCP(t, func(conn net.Conn) {
				io.ReadFull(conn, make([]byte, len(request)))
				conn.Write(c.answer)
			})
			if _, _, err := prototest.QueryNew(t, Protocol, addr, protocols.Settings{}, c.d); wire.Reason(err) != c.reason {
				t.Errorf("err %v, want %s", err, c.reason)
			}
		})
	}
	// A length that promises more than ever comes: the deadline ends it.
	addr := server(t, good[:40])
	if _, _, err := prototest.QueryNew(t, Protocol, addr, protocols.Settings{}, 300*time.Millisecond); !errors.Is(err, wire.ErrTimeout) {
		t.Errorf("short answer, then silence: %v", err)
	}
	prototest.DripTimesOut(t, Protocol, protocols.Settings{}, good)
}

func TestQuerierContract(t *testing.T) {
	prototest.QuerierContract(t, prototest.Contract{Protocol: Protocol, Name: "starmade", DefaultPort: 4242, Transport: "tcp"})
}
