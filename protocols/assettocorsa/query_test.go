package assettocorsa

import (
	"errors"
	"net/http"
	"net/netip"
	"strings"
	"testing"
	"time"

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
	addr := fake(t, "info.json", "entry_list.json")
	res, tr, err := query(t, addr, protocols.Settings{Players: true})
	if err != nil || res.Name != "ACRL Nordschleife Trackday" || len(res.PlayerList) != 2 || res.PhaseErrors != nil {
		t.Fatalf("%v, %+v", err, res)
	}
	if len(tr.Phases) != 2 || tr.Phases[1].Name != "players" {
		t.Errorf("phases %+v", tr.Phases)
	}
	res, tr, err = query(t, addr, protocols.Settings{})
	if err != nil || res.PlayerList != nil || len(tr.Phases) != 1 {
		t.Errorf("without players: %v, %+v, %+v", err, res, tr.Phases)
	}
}

// A failed entry list is a players phase error of a server that is up.
func TestQueryPlayersFail(t *testing.T) {
	t.Parallel()
	res, _, err := query(t, fake(t, "info.json", ""), protocols.Settings{Players: true})
	if err != nil || len(res.PhaseErrors) != 1 || !errors.Is(res.PhaseErrors[0].Err, wire.ErrServer) {
		t.Fatalf("%v, %+v", err, res)
	}
}

func TestQueryFailures(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name string
		info string
		want error
	}{
		{"not ac", "not_ac.json", wire.ErrMalformed},
		{"truncated", "truncated.json", wire.ErrMalformed},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			_, tr, err := query(t, fake(t, tc.info, "entry_list.json"), protocols.Settings{Players: true})
			if !errors.Is(err, tc.want) {
				t.Errorf("err = %v, want %v", err, tc.want)
			}
			if len(tr.Phases) != 1 || tr.Phases[0].Err == nil {
				t.Errorf("phases %+v", tr.Phases)
			}
		})
	}
	_, _, err := query(t, fake(t, "", ""), protocols.Settings{})
	if !errors.Is(err, wire.ErrServer) {
		t.Errorf("no /INFO: %v", err)
	}
}

func TestQuerierContract(t *testing.T) {
	prototest.QuerierContract(t, prototest.Contract{
		Protocol: Protocol, Name: "assettocorsa", DefaultPort: 8081, Transport: "tcp",
		Settings: protocols.Settings{Players: true},
	})
}
