package terraria

import (
	"errors"
	"fmt"
	"net"
	"net/http"
	"net/netip"
	"net/url"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/gameserver-exporter/gameserver_exporter/protocols"
	"github.com/gameserver-exporter/gameserver_exporter/protocols/prototest"
	"github.com/gameserver-exporter/gameserver_exporter/protocols/wire"
)

// fakeTShock serves body on /v2/server/status the way TShock does (HTTP 200,
// JSON, its own status inside) and records the query it got. With a token it
// guards the endpoint as EnableTokenEndpointAuthentication does (SecureRest.cs):
// no token is status 401, another one 403.
func fakeTShock(t testing.TB, body []byte, gotQuery *atomic.Value, token ...string) netip.AddrPort {
	t.Helper()
	_, addr := prototest.HTTP(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if gotQuery != nil {
			gotQuery.Store(r.URL.RawQuery)
		}
		w.Header().Set("Content-Type", "application/json; charset=utf-8")
		switch got, sent := r.URL.Query()["token"]; {
		case r.Method != http.MethodGet || r.URL.Path != "/v2/server/status":
			w.Write(prototest.File(t, "endpoint_missing.json"))
		case len(token) > 0 && !sent:
			w.Write(prototest.File(t, "token_required.json"))
		case len(token) > 0 && got[0] != token[0]:
			w.Write(prototest.File(t, "token_invalid.json"))
		default:
			w.Write(body)
		}
	}), false)
	return addr
}

// The players and the rules are asked for only when the module wants them.
func TestQueryRoundTrip(t *testing.T) {
	var query atomic.Value
	addr := fakeTShock(t, prototest.File(t, "status_players_rules.json"), &query)
	for _, c := range []struct {
		players     bool
		query, want string
	}{
		{true, "players=true&rules=false", "[Guide Zoë Pinky] rules - info 10"},
		{false, "players=false&rules=false", "- rules - info 9"},
	} {
		res, tr, err := prototest.QueryNew(t, Protocol, addr, protocols.Settings{Players: c.players}, 2*time.Second)
		prototest.CheckProbe(t, res, tr, err, `"Terraria Server" "Dirtmouth" "" "v1.4.4.9" 3/8 bots ? pw 1 `+c.want+` partial [] | info:ok skipped 0 log 0`)
		if q := query.Load(); q != c.query || tr.Attempts != 1 {
			t.Errorf("query string %q, %d attempts", q, tr.Attempts)
		}
	}
}

// A module's token goes with the request, masked in the trace and kept out of
// errors; a server that wants one says which option is missing, and a token it
// does not know is refused.
func TestQueryToken(t *testing.T) {
	const token = "3f9a77c0e1d24b5e"
	addr := fakeTShock(t, prototest.File(t, "status_players_rules.json"), nil, token)
	for tok, says := range map[string]string{token: "Terraria Server", "": "give the module one (terraria: {token_file", "0000not+it": "token was refused"} {
		q := prototest.MustNew(t, Protocol, protocols.Settings{Options: prototest.OptionsOf(Options{Token: protocols.Secret(tok)})})
		res, tr, err := prototest.QueryWithin(t, q, addr, 2*time.Second)
		got := fmt.Sprint(err)
		if err == nil {
			got = res.Name
		}
		if !strings.Contains(got, says) || err != nil && !errors.Is(err, wire.ErrServer) {
			t.Errorf("token %q: %s, want %q", tok, got, says)
		}
		if tok != "" {
			prototest.NoSecrets(t, q, tr, err, tok, url.QueryEscape(tok))
		}
	}
	prototest.OptionsErrors(t, Protocol, prototest.BadOptions{"{token: x, token_file: /nonexistent}": "terraria token: "})
}

// errorCase queries a fake server and checks the error's sentinel and text,
// which quotes no body.
func errorCase(t *testing.T, h http.HandlerFunc, deadline time.Duration, want error, msg string) {
	t.Helper()
	_, addr := prototest.HTTP(t, h, false)
	res, _, err := prototest.QueryWithin(t, prototest.MustNew(t, Protocol, protocols.Settings{Players: true}), addr, deadline)
	prototest.CheckFailed(t, res, err, want, msg, prototest.Unquoted)
}

func TestQueryErrors(t *testing.T) {
	for _, h := range prototest.HTTPHazards(t, maxBody) {
		t.Run(h.Name, func(t *testing.T) { errorCase(t, h.Handler, h.Deadline, h.Want, h.Msg) })
	}
	t.Run("proxy_502", func(t *testing.T) {
		errorCase(t, func(w http.ResponseWriter, r *http.Request) {
			http.Error(w, prototest.Unquoted, http.StatusBadGateway)
		}, 2*time.Second, wire.ErrServer, "HTTP 502")
	})
	t.Run("plain_tcp_junk", func(t *testing.T) {
		addr := prototest.TCP(t, func(c net.Conn) { c.Write([]byte("SSH-2.0-OpenSSH_9.6\r\n")) })
		if _, _, err := prototest.QueryNew(t, Protocol, addr, protocols.Settings{}, 2*time.Second); !errors.Is(err, wire.ErrMalformed) {
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

func BenchmarkQuery(b *testing.B) {
	addr := fakeTShock(b, prototest.File(b, "status_players_rules.json"), nil)
	prototest.QueryBench(b, Protocol, protocols.Settings{Players: true}, addr)
}
