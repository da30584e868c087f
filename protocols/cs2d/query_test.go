package cs2d

import (
	"testing"
	"time"

	"github.com/gameserver-exporter/gameserver_exporter/protocols"
	"github.com/gameserver-exporter/gameserver_exporter/protocols/prototest"
	"github.com/gameserver-exporter/gameserver_exporter/protocols/wire"
)

var all = protocols.Settings{Players: true, Rules: true}

func TestQuery(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name    string
		replies [][]byte
		want    string
	}{
		// Strays before the answer are skipped and noted; the answer is decoded
		// in the one info phase.
		{"strays then the answer", [][]byte{prototest.VecFile(t, "stray"), []byte("noise"), prototest.VecFile(t, "full")}, `"Dust Town" "de_dust" "team deathmatch" "" 3/16 bots 2 pw 2 [Alice Bob Carol Bot1 Bot2] rules 9 info 12 partial [] | info:ok skipped 2 log 2`},
		// A server that answers the serverinfo but not the player list is up:
		// the players phase says why the list is missing.
		{"partial", [][]byte{prototest.VecFile(t, "cut_players")}, `"Cutter" "aim_x" "" "" 2/12 bots 0 pw 1 [Alice] rules 8 info 12 partial [players:truncated] | info:ok skipped 0 log 0`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			res, tr, err := prototest.QueryNew(t, Protocol, prototest.Answering(t, request, tc.replies...), all, 2*time.Second)
			prototest.CheckProbe(t, res, tr, err, tc.want)
			if len(tr.Packets) != 1+len(tc.replies) {
				t.Errorf("packets %+v", tr.Packets)
			}
		})
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
