package assettocorsa

import (
	"net/http"
	"net/netip"
	"strings"
	"testing"

	"github.com/gameserver-exporter/gameserver_exporter/protocols"
	"github.com/gameserver-exporter/gameserver_exporter/protocols/prototest"
	"github.com/gameserver-exporter/gameserver_exporter/protocols/wire"
)

// fake answers /INFO and /JSON|<anything> as the server does, matching the raw
// request line (the server reads "|" literally); entries "" leaves /JSON| a 404.
func fake(t testing.TB, info, entries string) netip.AddrPort {
	t.Helper()
	_, addr := prototest.HTTP(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		var name string
		switch {
		case r.RequestURI == "/INFO" && info != "":
			name = info
		case strings.HasPrefix(r.RequestURI, "/JSON|") && entries != "":
			name = entries
		default:
			http.NotFound(w, r)
			return
		}
		w.Header().Set("Content-Type", "application/json")
		w.Write(prototest.File(t, name))
	}), false)
	return addr
}

// With the players and without; a failed entry list is a players phase error
// of a server that is up. clients counts the drivers; a dedicated server runs
// no AI cars.
func TestQuery(t *testing.T) {
	t.Parallel()
	const info = `"ACRL Nordschleife Trackday" "ks_nordschleife-endurance" "" "1.16.4" 2/24 bots ? pw 1 `
	for _, c := range []struct {
		entries string
		players bool
		want    string // prototest.ProbeLine
	}{
		{"entry_list.json", true, info + `[Lena Tom] rules - info 6 partial [] | info:ok,players:ok`},
		{"entry_list.json", false, info + `- rules - info 6 partial [] | info:ok`},
		{"", true, info + `- rules - info 6 partial [players:server_error] | info:ok,players:server_error`},
	} {
		res, tr, err := prototest.QueryOnce(t, newQuerier, fake(t, "info.json", c.entries), protocols.Settings{Players: c.players})
		prototest.CheckProbe(t, res, tr, err, c.want)
		prototest.CheckBots(t, res, 2, prototest.Unknown, true)
	}
}

func TestQueryFailures(t *testing.T) {
	t.Parallel()
	prototest.PageFailures(t, newQuerier, protocols.Settings{Players: true},
		prototest.PageFailure{Name: "no /INFO", Addr: fake(t, "", ""), Want: wire.ErrServer},
		prototest.PageFailure{Name: "not ac", Addr: fake(t, "not_ac.json", "entry_list.json"), Want: wire.ErrMalformed},
		prototest.PageFailure{Name: "truncated", Addr: fake(t, "truncated.json", "entry_list.json"), Want: wire.ErrMalformed})
}

func TestQuerierContract(t *testing.T) {
	prototest.QuerierContract(t, prototest.Contract{
		Protocol: Protocol, Name: "assettocorsa", DefaultPort: 8081, Transport: "tcp",
		Settings: protocols.Settings{Players: true},
	})
}

// TestGamedig queries the same fake server with gamedig (npm, game assettocorsa)
// and the Querier: name, track, counts, password, version and the connected
// drivers agree (the fake matches "/JSON|" literally, as gamedig sends it).
func TestGamedig(t *testing.T) {
	addr := fake(t, "info.json", "entry_list.json")
	gd, res := prototest.GamedigQuery(t, "assettocorsa", nil, Protocol, protocols.Settings{Players: true}, addr)
	prototest.GamedigAgrees(t, gd, res)
	if gd.Password != (res.Password == protocols.FlagTrue) {
		t.Errorf("password: querier %v, gamedig %v", res.Password, gd.Password)
	}
}
