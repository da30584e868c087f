package savage2

import (
	"testing"
	"time"

	"github.com/gameserver-exporter/gameserver_exporter/protocols"
	"github.com/gameserver-exporter/gameserver_exporter/protocols/prototest"
	"github.com/gameserver-exporter/gameserver_exporter/protocols/wire"
)

func TestQuery(t *testing.T) {
	t.Parallel()
	// A stray shorter than a header first: skipped.
	res, tr := prototest.QueryOK(t, Protocol, prototest.Answering(t, request, []byte("ping"), prototest.VecFile(t, "full")), protocols.Settings{Rules: true}, 2*time.Second)
	if res.Name != "Newerth Front" || res.Password != protocols.FlagTrue || len(res.Rules) == 0 || res.PlayerList != nil {
		t.Errorf("result %+v", res)
	}
	prototest.CheckBots(t, res, 7, prototest.Unknown, true)
	if len(tr.Packets) != 3 || tr.Packets[1].Note == "" {
		t.Errorf("trace %+v", tr.Packets)
	}
}

func TestQueryFailures(t *testing.T) {
	t.Parallel()
	prototest.ReplyFailures(t, Protocol, request, protocols.Settings{Retries: 1},
		prototest.ReplyFailure{Name: "cut", Replies: [][]byte{prototest.VecFile(t, "short")}, Want: wire.ErrTruncated},
		prototest.ReplyFailure{Name: "strays only", Replies: [][]byte{[]byte("x"), make([]byte, headerLen)}, D: 300 * time.Millisecond, Want: wire.ErrTruncated},
		prototest.ReplyFailure{Name: "zeros", Replies: [][]byte{make([]byte, 64)}, D: 300 * time.Millisecond, Want: wire.ErrMalformed},
	)
}

func TestQuerierContract(t *testing.T) {
	t.Parallel()
	full := prototest.VecFile(t, "full")
	prototest.QuerierContract(t, prototest.Contract{
		Protocol: Protocol, Name: "savage2", DefaultPort: 11235, Transport: "udp",
		Answer:   func([]byte) [][]byte { return [][]byte{full} },
		WantName: "Newerth Front",
	})
}

func BenchmarkQuery(b *testing.B) {
	prototest.QueryBench(b, Protocol, protocols.Settings{Rules: true}, prototest.Answering(b, request, prototest.VecFile(b, "full")))
}
