package kspdmp

import (
	"net/netip"
	"testing"

	"github.com/gameserver-exporter/gameserver_exporter/protocols"
	"github.com/gameserver-exporter/gameserver_exporter/protocols/prototest"
	"github.com/gameserver-exporter/gameserver_exporter/protocols/wire"
)

func query(t testing.TB, addr netip.AddrPort, s protocols.Settings) (*protocols.Result, *wire.Trace, error) {
	return prototest.QueryOnce(t, newQuerier, addr, s)
}

// The status page is the server's root.
func TestQuery(t *testing.T) {
	t.Parallel()
	res, tr, err := query(t, prototest.StatusPages(t, map[string]string{"/": "status.json"}), protocols.Settings{Players: true})
	if err != nil || res.Name != "Kerbin Orbital Club" || len(res.PlayerList) != 2 {
		t.Fatalf("%v, %+v", err, res)
	}
	if len(tr.Phases) != 1 || tr.Phases[0].Name != "info" {
		t.Errorf("phases %+v", tr.Phases)
	}
}

func TestQueryFailures(t *testing.T) {
	t.Parallel()
	root := func(file string) netip.AddrPort { return prototest.StatusPages(t, map[string]string{"/": file}) }
	prototest.PageFailures(t, newQuerier, protocols.Settings{Players: true},
		prototest.PageFailure{Name: "no status page", Addr: prototest.StatusPages(t, nil), Want: wire.ErrServer},
		prototest.PageFailure{Name: "not dmp", Addr: root("not_dmp.json"), Want: wire.ErrMalformed},
		prototest.PageFailure{Name: "truncated", Addr: root("truncated.json"), Want: wire.ErrMalformed})
}

func TestQuerierContract(t *testing.T) {
	prototest.QuerierContract(t, prototest.Contract{
		Protocol: Protocol, Name: "kspdmp", DefaultPort: 6702, PortOffset: 1, Transport: "tcp",
		Settings: protocols.Settings{Players: true},
	})
}
