package tribes1

import (
	"bytes"
	"errors"
	"net/netip"
	"testing"
	"time"

	"github.com/gameserver-exporter/gameserver_exporter/protocols"
	"github.com/gameserver-exporter/gameserver_exporter/protocols/prototest"
	"github.com/gameserver-exporter/gameserver_exporter/protocols/wire"
)

// echoed copies the request's echo bytes into vec, as a server does; a server
// answers only its own request byte.
func echoed(t testing.TB, req []byte, vec []byte) []byte {
	if len(req) != 3 || req[0] != vec[3] {
		return nil
	}
	out := bytes.Clone(vec)
	out[1], out[2] = req[1], req[2]
	return out
}

func server(t testing.TB, vec []byte) netip.AddrPort {
	return prototest.UDP(t, func(req []byte) [][]byte {
		if r := echoed(t, req, vec); r != nil {
			return [][]byte{r}
		}
		return nil
	})
}

var all = protocols.Settings{Players: true, Rules: true}

func starsiege(s protocols.Settings) protocols.Settings {
	s.Options = func(v any) error { v.(*Options).Variant = "starsiege"; return nil }
	return s
}

// Strays (a short datagram, another type) before the answer are skipped.
func TestQuery(t *testing.T) {
	t.Parallel()
	tribes := prototest.VecFile(t, "tribes")
	addr := prototest.UDP(t, func(req []byte) [][]byte { return [][]byte{[]byte("x"), {0x61, 0, 0, 0x62}, echoed(t, req, tribes)} })
	res, tr := prototest.QueryOK(t, Protocol, addr, all, 2*time.Second)
	if res.Name != "Tribes Arena é" || len(res.PlayerList) != 2 || len(res.Rules) == 0 || res.PhaseErrors != nil {
		t.Errorf("result %+v", res)
	}
	prototest.CheckBots(t, res, 2, prototest.Unknown, true)
	if len(tr.Packets) != 4 || prototest.Ignored(tr) != 2 || tr.Packets[0].Data[0] != 'b' {
		t.Errorf("trace %+v", tr.Packets)
	}
}

func TestQueryStarsiege(t *testing.T) {
	t.Parallel()
	addr := server(t, prototest.VecFile(t, "starsiege"))
	res, tr := prototest.QueryOK(t, Protocol, addr, starsiege(all), 2*time.Second)
	if res.Name != "Mech Arena" || len(res.PlayerList) != 2 || tr.Packets[0].Data[0] != 'r' {
		t.Errorf("result %+v", res)
	}
	// The Tribes request gets no answer from it.
	if _, _, err := prototest.QueryNew(t, Protocol, addr, all, 300*time.Millisecond); !errors.Is(err, wire.ErrTimeout) {
		t.Errorf("a Tribes query of a Starsiege server: %v", err)
	}
}

func TestOptionsErrors(t *testing.T) {
	prototest.OptionsErrors(t, Protocol, prototest.BadOptions{"variant: tribes2": `tribes1 options: variant "tribes2"`})
}

// The handlers answer whatever echo the request carries.
func TestQueryFailures(t *testing.T) {
	t.Parallel()
	tribes := prototest.VecFile(t, "tribes")
	prototest.ReplyFailures(t, Protocol, newRequest(reqTribes, 0), protocols.Settings{Players: true, Retries: 1},
		prototest.ReplyFailure{Name: "wrong echo", Handler: func(req []byte) [][]byte {
			r := echoed(t, req, tribes)
			r[1] ^= 1
			return [][]byte{r}
		}, D: 300 * time.Millisecond, Want: wire.ErrMismatch},
		prototest.ReplyFailure{Name: "cut status", Handler: func(req []byte) [][]byte {
			return [][]byte{echoed(t, req, prototest.VecFile(t, "short"))}
		}, Want: wire.ErrTruncated})
}

func TestQueryPartial(t *testing.T) {
	t.Parallel()
	res, _ := prototest.QueryOK(t, Protocol, server(t, prototest.VecFile(t, "cut_players")), all, 2*time.Second)
	if len(res.PlayerList) != 1 || len(res.PhaseErrors) != 1 || res.PhaseErrors[0].Phase != "players" {
		t.Errorf("result %+v", res)
	}
}

func TestQuerierContract(t *testing.T) {
	t.Parallel()
	tribes := prototest.VecFile(t, "tribes")
	prototest.QuerierContract(t, prototest.Contract{
		Protocol: Protocol, Name: "tribes1", DefaultPort: 28001, Transport: "udp",
		Settings: protocols.Settings{Players: true},
		Answer:   func(req []byte) [][]byte { return [][]byte{echoed(t, req, tribes)} },
		WantName: "Tribes Arena é",
	})
}

func BenchmarkQuery(b *testing.B) {
	prototest.QueryBench(b, Protocol, all, server(b, prototest.VecFile(b, "tribes")))
}
