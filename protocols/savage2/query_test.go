package savage2

import (
	"errors"
	"testing"
	"time"

	"github.com/gameserver-exporter/gameserver_exporter/protocols"
	"github.com/gameserver-exporter/gameserver_exporter/protocols/prototest"
	"github.com/gameserver-exporter/gameserver_exporter/protocols/wire"
)

func TestQuery(t *testing.T) {
	t.Parallel()
	// A stray shorter than a header first: skipped.
	res, tr, err := prototest.QueryNew(t, Protocol, prototest.Answering(t, request, []byte("ping"), readVec(t, "full")), protocols.Settings{Rules: true}, 2*time.Second)
	if err != nil {
		t.Fatal(err)
	}
	if res.Name != "Newerth Front" || res.Password != protocols.FlagTrue || len(res.Rules) == 0 || res.PlayerList != nil {
		t.Errorf("result %+v", res)
	}
	if len(tr.Packets) != 3 || tr.Packets[1].Note == "" {
		t.Errorf("trace %+v", tr.Packets)
	}
}

func TestQueryFailures(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name    string
		replies [][]byte
		d       time.Duration
		want    error
	}{
		{"cut", [][]byte{readVec(t, "short")}, 2 * time.Second, wire.ErrTruncated},
		{"strays only", [][]byte{[]byte("x"), make([]byte, headerLen)}, 300 * time.Millisecond, wire.ErrTruncated},
		{"zeros", [][]byte{make([]byte, 64)}, 300 * time.Millisecond, wire.ErrMalformed},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			start := time.Now()
			_, tr, err := prototest.QueryNew(t, Protocol, prototest.Answering(t, request, tc.replies...), protocols.Settings{Retries: 1}, tc.d)
			if !errors.Is(err, tc.want) {
				t.Errorf("err = %v, want %v", err, tc.want)
			}
			if el := time.Since(start); el > tc.d+2*time.Second+prototest.LagSince(start) {
				t.Errorf("returned after %v", el)
			}
			if len(tr.Phases) != 1 || tr.Phases[0].Err == nil {
				t.Errorf("phases %+v", tr.Phases)
			}
		})
	}
}

func TestQuerierContract(t *testing.T) {
	t.Parallel()
	full := readVec(t, "full")
	prototest.QuerierContract(t, prototest.Contract{
		Protocol: Protocol, Name: "savage2", DefaultPort: 11235, Transport: "udp",
		Answer:   func([]byte) [][]byte { return [][]byte{full} },
		WantName: "Newerth Front",
	})
}
