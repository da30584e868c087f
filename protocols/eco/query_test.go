package eco

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

// /info is asked first.
func TestQuery(t *testing.T) {
	t.Parallel()
	res, tr, err := query(t, prototest.StatusPages(t, map[string]string{"/info": "info.json", "/frontpage": "frontpage.json"}), protocols.Settings{Players: true})
	if err != nil || res.Name != "Green Valley EU" || len(res.PlayerList) != 3 {
		t.Fatalf("%v, %+v", err, res)
	}
	if len(tr.Phases) != 1 || tr.Phases[0].Name != "info" {
		t.Errorf("phases %+v", tr.Phases)
	}
}

// A server without /info answers /frontpage.
func TestQueryFrontpage(t *testing.T) {
	t.Parallel()
	res, _, err := query(t, prototest.StatusPages(t, map[string]string{"/frontpage": "frontpage.json"}), protocols.Settings{})
	if err != nil || res.Name != "Capped" || res.MaxPlayers != protocols.Known(20) {
		t.Fatalf("%v, %+v", err, res)
	}
}

func TestQueryFailures(t *testing.T) {
	t.Parallel()
	info := func(file string) netip.AddrPort { return prototest.StatusPages(t, map[string]string{"/info": file}) }
	prototest.PageFailures(t, newQuerier, protocols.Settings{Players: true},
		prototest.PageFailure{Name: "neither path", Addr: prototest.StatusPages(t, nil), Want: wire.ErrServer},
		prototest.PageFailure{Name: "not eco", Addr: info("not_eco.json"), Want: wire.ErrMalformed},
		prototest.PageFailure{Name: "truncated", Addr: info("truncated.json"), Want: wire.ErrMalformed})
}

func TestQuerierContract(t *testing.T) {
	prototest.QuerierContract(t, prototest.Contract{
		Protocol: Protocol, Name: "eco", DefaultPort: 3000, PortOffset: 1, Transport: "tcp",
		Settings: protocols.Settings{Players: true},
	})
}
