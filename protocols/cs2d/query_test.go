package cs2d

import (
	"errors"
	"testing"
	"time"

	"github.com/gameserver-exporter/gameserver_exporter/protocols"
	"github.com/gameserver-exporter/gameserver_exporter/protocols/prototest"
	"github.com/gameserver-exporter/gameserver_exporter/protocols/wire"
)

var all = protocols.Settings{Players: true, Rules: true}

// Strays before the answer are skipped and noted; the answer is decoded in
// the one info phase.
func TestQuery(t *testing.T) {
	t.Parallel()
	addr := prototest.Answering(t, request, prototest.VecFile(t, "stray"), []byte("noise"), prototest.VecFile(t, "full"))
	res, tr := prototest.QueryOK(t, Protocol, addr, all, 2*time.Second)
	if res.Name != "Dust Town" || res.Players != known(3) || res.Bots != known(2) || len(res.PlayerList) != 5 || len(res.Rules) == 0 || res.PhaseErrors != nil {
		t.Errorf("result %+v", res)
	}
	if len(tr.Packets) != 4 || prototest.Ignored(tr) != 2 || prototest.PhaseReasons(tr) != "info:ok" {
		t.Errorf("trace: packets %+v, phases %+v", tr.Packets, tr.Phases)
	}
}

// A server that answers the serverinfo but not the player list is up: the
// players phase says why the list is missing.
func TestQueryPartial(t *testing.T) {
	t.Parallel()
	addr := prototest.Answering(t, request, prototest.VecFile(t, "cut_players"))
	res, _ := prototest.QueryOK(t, Protocol, addr, all, 2*time.Second)
	if res.Name != "Cutter" || len(res.PlayerList) != 1 || len(res.PhaseErrors) != 1 || !errors.Is(res.PhaseErrors[0].Err, wire.ErrTruncated) {
		t.Errorf("result %+v", res)
	}
}

func TestQueryFailures(t *testing.T) {
	t.Parallel()
	prototest.ReplyFailures(t, Protocol, request, protocols.Settings{Players: true, Retries: 1},
		prototest.ReplyFailure{Name: "cut serverinfo", Replies: [][]byte{{0x01, 0x00, 0xFB, 0x01, 0x00, 0x09, 'a'}}, Want: wire.ErrTruncated},
		// Only strays until the deadline: the error says why the last was skipped.
		prototest.ReplyFailure{Name: "strays only", Replies: [][]byte{{0x01, 0x00, 0xFA, 0x01}, []byte("x")}, D: 300 * time.Millisecond, Want: wire.ErrMalformed},
	)
}

func TestQuerierContract(t *testing.T) {
	t.Parallel()
	full := prototest.VecFile(t, "full")
	prototest.QuerierContract(t, prototest.Contract{
		Protocol: Protocol, Name: "cs2d", DefaultPort: 36963, Transport: "udp",
		Settings: protocols.Settings{Players: true},
		Answer:   func([]byte) [][]byte { return [][]byte{full} },
		Check: func(t testing.TB, res *protocols.Result, _ *wire.Trace) {
			if res.Name != "Dust Town" || len(res.PlayerList) != 5 {
				t.Errorf("result %+v", res)
			}
		},
	})
}

func BenchmarkQuery(b *testing.B) {
	prototest.QueryBench(b, Protocol, all, prototest.Answering(b, request, prototest.VecFile(b, "full")))
}
