package terraria

import (
	"errors"
	"net"
	"net/http"
	"net/netip"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/gameserver-exporter/gameserver_exporter/protocols"
	"github.com/gameserver-exporter/gameserver_exporter/protocols/prototest"
	"github.com/gameserver-exporter/gameserver_exporter/protocols/wire"
)

// fakeTShock serves body on /v2/server/status the way TShock does (HTTP 200,
// JSON, its own status inside) and records the query it got.
func fakeTShock(t testing.TB, body []byte, gotQuery *atomic.Value) netip.AddrPort {
	t.Helper()
	_, addr := prototest.HTTP(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if gotQuery != nil {
			gotQuery.Store(r.URL.RawQuery)
		}
		if r.Method != http.MethodGet || r.URL.Path != "/v2/server/status" {
			w.Write(prototest.File(t, "endpoint_missing.json"))
			return
		}
		w.Header().Set("Content-Type", "application/json; charset=utf-8")
		w.Write(body)
	}), false)
	return addr
}

func newQ(t testing.TB, s protocols.Settings) protocols.Querier {
	t.Helper()
	q, err := Protocol.New(s)
	if err != nil {
		t.Fatal(err)
	}
	return q
}

func TestQueryRoundTrip(t *testing.T) {
	var query atomic.Value
	addr := fakeTShock(t, prototest.File(t, "status_players_rules.json"), &query)
	tr := wire.NewTrace()
	res, err := newQ(t, protocols.Settings{Players: true}).Query(prototest.Context(t, 2*time.Second), protocols.At(addr), tr)
	if err != nil {
		t.Fatal(err)
	}
	if q := query.Load(); q != "players=true&rules=false" {
		t.Errorf("query string %q", q)
	}
	if res.Name != "Terraria Server" || res.Map != "Dirtmouth" || res.Players.Value != 3 || res.MaxPlayers.Value != 8 || len(res.PlayerList) != 3 {
		t.Errorf("result %+v", res)
	}
	if len(tr.Phases) != 1 || tr.Phases[0].Name != "info" || tr.Phases[0].Err != nil || tr.Attempts != 1 {
		t.Errorf("trace phases %+v, attempts %d", tr.Phases, tr.Attempts)
	}
	// Without players or rules in the module, neither is asked for.
	if _, err := newQ(t, protocols.Settings{}).Query(prototest.Context(t, 2*time.Second), protocols.At(addr), nil); err != nil {
		t.Fatal(err)
	}
	if q := query.Load(); q != "players=false&rules=false" {
		t.Errorf("query string %q", q)
	}
}

// errorCase queries a fake server and checks the error's sentinel, its text, and
// that it came back by the deadline.
func errorCase(t *testing.T, h http.HandlerFunc, deadline time.Duration, want error, msg string) {
	t.Helper()
	_, addr := prototest.HTTP(t, h, false)
	start := time.Now()
	_, err := newQ(t, protocols.Settings{Players: true}).Query(prototest.Context(t, deadline), protocols.At(addr), wire.NewTrace())
	if !errors.Is(err, want) || !strings.Contains(err.Error(), msg) {
		t.Fatalf("err = %v, want %v containing %q", err, want, msg)
	}
	if el := time.Since(start); el > deadline+2*time.Second+prototest.LagSince(start) {
		t.Errorf("returned after %v, deadline %v", el, deadline)
	}
	if strings.Contains(err.Error(), "secret-admin-page") {
		t.Errorf("error quotes the body: %v", err)
	}
}

func TestQueryErrors(t *testing.T) {
	t.Run("token_required", func(t *testing.T) {
		body := prototest.File(t, "token_required.json")
		errorCase(t, func(w http.ResponseWriter, r *http.Request) { w.Write(body) }, 2*time.Second, wire.ErrServer, "authentication failed")
	})
	t.Run("html_error_page", func(t *testing.T) {
		errorCase(t, func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Content-Type", "text/html")
			w.Write([]byte("<html>secret-admin-page</html>"))
		}, 2*time.Second, wire.ErrMalformed, "text/html")
	})
	t.Run("proxy_502", func(t *testing.T) {
		errorCase(t, func(w http.ResponseWriter, r *http.Request) {
			http.Error(w, "secret-admin-page", http.StatusBadGateway)
		}, 2*time.Second, wire.ErrServer, "HTTP 502")
	})
	t.Run("body_over_cap", func(t *testing.T) {
		errorCase(t, func(w http.ResponseWriter, r *http.Request) {
			w.Write([]byte(`{"status":"200","name":"` + strings.Repeat("x", maxBody) + `"}`))
		}, 2*time.Second, wire.ErrTooLarge, "longer than")
	})
	t.Run("redirect_not_followed", func(t *testing.T) {
		var hit atomic.Bool
		other, _ := prototest.HTTP(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { hit.Store(true) }), false)
		errorCase(t, func(w http.ResponseWriter, r *http.Request) {
			http.Redirect(w, r, other.URL+"/v2/server/status", http.StatusFound)
		}, 2*time.Second, wire.ErrServer, "not followed")
		if hit.Load() {
			t.Error("the redirect was followed")
		}
	})
	t.Run("never_answers", func(t *testing.T) {
		errorCase(t, func(w http.ResponseWriter, r *http.Request) { <-r.Context().Done() },
			300*time.Millisecond, wire.ErrTimeout, "deadline")
	})
	t.Run("plain_tcp_junk", func(t *testing.T) {
		addr := prototest.TCP(t, func(c net.Conn) { c.Write([]byte("SSH-2.0-OpenSSH_9.6\r\n")) })
		_, err := newQ(t, protocols.Settings{}).Query(prototest.Context(t, 2*time.Second), protocols.At(addr), nil)
		if !errors.Is(err, wire.ErrMalformed) {
			t.Fatalf("err = %v, want malformed", err)
		}
	})
}

func TestQuerierContract(t *testing.T) {
	prototest.QuerierContract(t, prototest.Contract{
		Protocol: Protocol, Name: "terraria", DefaultPort: 7878, Transport: "tcp",
		Settings: protocols.Settings{Players: true},
	})
}
