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

func TestQuery(t *testing.T) {
	t.Parallel()
	addr := prototest.Answering(t, request, readVec(t, "full"))
	res, tr, err := prototest.QueryNew(t, Protocol, addr, all, 2*time.Second)
	if err != nil {
		t.Fatal(err)
	}
	if res.Name != "Dust Town" || res.Players != known(3) || res.Bots != known(2) || len(res.PlayerList) != 5 || len(res.Rules) == 0 || res.PhaseErrors != nil {
		t.Errorf("result %+v", res)
	}
	if len(tr.Packets) != 2 || len(tr.Phases) != 1 || tr.Phases[0].Name != "info" || tr.Phases[0].Err != nil {
		t.Errorf("trace: %d packets, phases %+v", len(tr.Packets), tr.Phases)
	}
}

// Strays before the answer are skipped and noted; the answer still counts.
func TestQueryStrays(t *testing.T) {
	t.Parallel()
	addr := prototest.Answering(t, request, readVec(t, "stray"), []byte("noise"), readVec(t, "full"))
	res, tr, err := prototest.QueryNew(t, Protocol, addr, all, 2*time.Second)
	if err != nil || res.Name != "Dust Town" {
		t.Fatalf("%v, %+v", err, res)
	}
	if tr.Packets[1].Note == "" || tr.Packets[2].Note == "" {
		t.Errorf("skipped datagrams not noted: %+v", tr.Packets)
	}
}

// A server that answers the serverinfo but not the player list is up: the
// players phase says why the list is missing.
func TestQueryPartial(t *testing.T) {
	t.Parallel()
	addr := prototest.Answering(t, request, readVec(t, "cut_players"))
	res, _, err := prototest.QueryNew(t, Protocol, addr, all, 2*time.Second)
	if err != nil {
		t.Fatal(err)
	}
	if res.Name != "Cutter" || len(res.PlayerList) != 1 || len(res.PhaseErrors) != 1 || !errors.Is(res.PhaseErrors[0].Err, wire.ErrTruncated) {
		t.Errorf("result %+v", res)
	}
}

func TestQueryFailures(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name    string
		replies [][]byte
		want    error
	}{
		{"cut serverinfo", [][]byte{{0x01, 0x00, 0xFB, 0x01, 0x00, 0x09, 'a'}}, wire.ErrTruncated},
		// Only strays until the deadline: the error says why the last was skipped.
		{"strays only", [][]byte{{0x01, 0x00, 0xFA, 0x01}, []byte("x")}, wire.ErrMalformed},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			d := 2 * time.Second
			if tc.name == "strays only" {
				d = 300 * time.Millisecond
			}
			start := time.Now()
			_, tr, err := prototest.QueryNew(t, Protocol, prototest.Answering(t, request, tc.replies...), protocols.Settings{Players: true, Retries: 1}, d)
			if !errors.Is(err, tc.want) {
				t.Errorf("err = %v, want %v", err, tc.want)
			}
			if el := time.Since(start); el > d+2*time.Second+prototest.LagSince(start) {
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
