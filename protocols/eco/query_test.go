package eco

import (
	"errors"
	"net/http"
	"net/netip"
	"testing"
	"time"

	"github.com/gameserver-exporter/gameserver_exporter/protocols"
	"github.com/gameserver-exporter/gameserver_exporter/protocols/prototest"
	"github.com/gameserver-exporter/gameserver_exporter/protocols/wire"
)

// fake serves bodies by path, as an Eco web server does; other paths are 404.
func fake(t testing.TB, bodies map[string]string) netip.AddrPort {
	t.Helper()
	_, addr := prototest.HTTP(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		name, ok := bodies[r.URL.Path]
		if !ok || r.Method != http.MethodGet {
			http.NotFound(w, r)
			return
		}
		w.Header().Set("Content-Type", "application/json")
		w.Write(prototest.File(t, name))
	}), false)
	return addr
}

func query(t testing.TB, addr netip.AddrPort, s protocols.Settings) (*protocols.Result, *wire.Trace, error) {
	t.Helper()
	q, err := newQuerier(s)
	if err != nil {
		t.Fatal(err)
	}
	tr := wire.NewTrace()
	res, err := q.Query(prototest.Context(t, 2*time.Second), protocols.At(addr), tr)
	return res, tr, err
}

func TestQuery(t *testing.T) {
	t.Parallel()
	res, tr, err := query(t, fake(t, map[string]string{"/info": "info.json", "/frontpage": "frontpage.json"}), protocols.Settings{Players: true})
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
	res, _, err := query(t, fake(t, map[string]string{"/frontpage": "frontpage.json"}), protocols.Settings{})
	if err != nil || res.Name != "Capped" || res.MaxPlayers != protocols.Known(20) {
		t.Fatalf("%v, %+v", err, res)
	}
}

func TestQueryFailures(t *testing.T) {
	t.Parallel()
	html := func(status int) netip.AddrPort {
		_, addr := prototest.HTTP(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Content-Type", "text/html")
			w.WriteHeader(status)
			w.Write([]byte("<html>busy</html>"))
		}), false)
		return addr
	}
	for _, tc := range []struct {
		name string
		addr netip.AddrPort
		want error
	}{
		{"neither path", fake(t, nil), wire.ErrServer},
		{"internal error", html(http.StatusInternalServerError), wire.ErrServer},
		{"html page", html(http.StatusOK), wire.ErrMalformed},
		{"not eco", fake(t, map[string]string{"/info": "not_eco.json"}), wire.ErrMalformed},
		{"truncated", fake(t, map[string]string{"/info": "truncated.json"}), wire.ErrMalformed},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			_, tr, err := query(t, tc.addr, protocols.Settings{Players: true})
			if !errors.Is(err, tc.want) {
				t.Errorf("err = %v, want %v", err, tc.want)
			}
			if len(tr.Phases) != 1 || tr.Phases[0].Err == nil {
				t.Errorf("phases %+v", tr.Phases)
			}
		})
	}
}

func TestQuerierContract(t *testing.T) {
	prototest.QuerierContract(t, prototest.Contract{
		Protocol: Protocol, Name: "eco", DefaultPort: 3000, PortOffset: 1, Transport: "tcp",
		Settings: protocols.Settings{Players: true},
	})
}
