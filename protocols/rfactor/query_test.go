package rfactor

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

func server(t testing.TB, replies ...[]byte) netip.AddrPort {
	return prototest.UDP(t, func(req []byte) [][]byte {
		if !bytes.Equal(req, request) {
			t.Errorf("request %q", req)
			return nil
		}
		return replies
	})
}

func query(t testing.TB, addr netip.AddrPort, s protocols.Settings, d time.Duration) (*protocols.Result, *wire.Trace, error) {
	t.Helper()
	q, err := newQuerier(s)
	if err != nil {
		t.Fatal(err)
	}
	tr := wire.NewTrace()
	res, err := q.Query(prototest.Context(t, d), protocols.At(addr), tr)
	return res, tr, err
}

func TestQuery(t *testing.T) {
	t.Parallel()
	res, tr, err := query(t, server(t, []byte("stray"), readVec(t, "full")), protocols.Settings{}, 2*time.Second)
	if err != nil || res.Name != "Sunday Cup" || res.Bots != protocols.Known(4) {
		t.Fatalf("%v, %+v", err, res)
	}
	if len(tr.Packets) != 3 || tr.Packets[1].Note == "" {
		t.Errorf("trace %+v", tr.Packets)
	}
}

func TestQueryFailures(t *testing.T) {
	t.Parallel()
	start := time.Now()
	_, tr, err := query(t, server(t, readVec(t, "short")), protocols.Settings{Retries: 1}, 300*time.Millisecond)
	if !errors.Is(err, wire.ErrTruncated) {
		t.Errorf("err = %v, want truncated (only short datagrams)", err)
	}
	if el := time.Since(start); el > 2300*time.Millisecond+prototest.LagSince(start) {
		t.Errorf("returned after %v", el)
	}
	if len(tr.Phases) != 1 || tr.Phases[0].Err == nil {
		t.Errorf("phases %+v", tr.Phases)
	}
}

func TestQuerierContract(t *testing.T) {
	t.Parallel()
	full := readVec(t, "full")
	prototest.QuerierContract(t, prototest.Contract{
		Protocol: Protocol, Name: "rfactor", DefaultPort: 34397, PortOffset: -100, Transport: "udp",
		Answer:   func([]byte) [][]byte { return [][]byte{full} },
		WantName: "Sunday Cup",
	})
}
