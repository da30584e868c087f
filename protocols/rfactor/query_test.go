package rfactor

import (
	"testing"
	"time"

	"github.com/gameserver-exporter/gameserver_exporter/protocols"
	"github.com/gameserver-exporter/gameserver_exporter/protocols/prototest"
	"github.com/gameserver-exporter/gameserver_exporter/protocols/wire"
)

func TestQuery(t *testing.T) {
	t.Parallel()
	res, tr, err := prototest.QueryNew(t, Protocol, prototest.Answering(t, request, []byte("stray"), prototest.VecFile(t, "full")), protocols.Settings{}, 2*time.Second)
	if err != nil || res.Name != "Sunday Cup" {
		t.Fatalf("%v, %+v", err, res)
	}
	prototest.CheckBots(t, res, 5, 4, false)
	if len(tr.Packets) != 3 || tr.Packets[1].Note == "" {
		t.Errorf("trace %+v", tr.Packets)
	}
}

func TestQueryFailures(t *testing.T) {
	t.Parallel()
	prototest.ReplyFailures(t, Protocol, request, protocols.Settings{Retries: 1},
		prototest.ReplyFailure{Name: "only short datagrams", Replies: [][]byte{prototest.VecFile(t, "short")}, D: 300 * time.Millisecond, Want: wire.ErrTruncated})
}

func TestQuerierContract(t *testing.T) {
	t.Parallel()
	full := prototest.VecFile(t, "full")
	prototest.QuerierContract(t, prototest.Contract{
		Protocol: Protocol, Name: "rfactor", DefaultPort: 34397, PortOffset: -100, Transport: "udp",
		Answer:   func([]byte) [][]byte { return [][]byte{full} },
		WantName: "Sunday Cup",
	})
}

func BenchmarkQuery(b *testing.B) {
	prototest.QueryBench(b, Protocol, protocols.Settings{}, prototest.Answering(b, request, prototest.VecFile(b, "full")))
}
