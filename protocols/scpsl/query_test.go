package scpsl

import (
	"fmt"
	"net/http"
	"net/netip"
	"net/url"
	"sync/atomic"
	"testing"
	"time"

	"github.com/gameserver-exporter/gameserver_exporter/protocols"
	"github.com/gameserver-exporter/gameserver_exporter/protocols/prototest"
	"github.com/gameserver-exporter/gameserver_exporter/protocols/wire"
)

const (
	account = "20100"
	apiKey  = "k3yS3cr3tVa1ue"
)

// The target of every test: a documentation address that is never contacted;
// its port picks the server.
var target = netip.MustParseAddrPort("203.0.113.10:7777")

// fakeNorthwood answers GET /serverinfo.php as Northwood does: the account's
// servers (a vector) for the right id and key, Success false otherwise.
type fakeNorthwood struct {
	t        testing.TB
	hook     func(w http.ResponseWriter, r *http.Request) bool
	requests atomic.Int32
	lastURL  atomic.Value
}

func (f *fakeNorthwood) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	f.requests.Add(1)
	f.lastURL.Store(r.URL)
	if f.hook != nil && f.hook(w, r) {
		return
	}
	w.Header().Set("Content-Type", "application/json")
	q := r.URL.Query()
	switch {
	case r.Method != http.MethodGet || r.URL.Path != "/serverinfo.php":
		w.WriteHeader(http.StatusNotFound)
		w.Write([]byte(`{"Success": false, "Error": "Not found"}`))
	case q.Get("id") != account || q.Get("key") != apiKey:
		w.Write(prototest.File(f.t, "error_denied.json"))
	default:
		w.Write(prototest.File(f.t, "serverinfo_basic.json"))
	}
}

// api is the protocol's API, for its tests.
var api = prototest.OffTarget[*querier, Options]{Protocol: Protocol, API: func(q *querier) *protocols.API { return &q.api }}

// The whole exchange over TLS: the account's servers, the target's picked by
// port or by server_id; the key sent, never traced.
func TestQuery(t *testing.T) {
	const basic = `"Site-19 Breach | EU | Vanilla" "" "" "14.1.3" 12/30 bots ? pw 0 `
	for _, c := range []struct {
		players  bool
		serverID int64
		port     uint16
		want     string // prototest.ProbeLine
	}{
		{true, 0, 7777, basic + `[Dr. Bright Zweiter Spieler ü] rules - info 3 partial [] | info:ok skipped 0 log 0`},
		{false, 0, 7777, basic + `- rules - info 3 partial [] | info:ok skipped 0 log 0`},
		{true, 20102, 443, `"Zweiter Server ü <Testing>" "" "" "14.1.3" 0/25 bots ? pw 0 [] rules - info 2 partial [] | info:ok skipped 0 log 0`},
	} {
		t.Run(fmt.Sprint(c.players, c.serverID), func(t *testing.T) {
			f := &fakeNorthwood{t: t}
			srv, _ := prototest.HTTP(t, f, true)
			q := api.Against(t, srv, Options{AccountID: account, APIKey: apiKey, ServerID: c.serverID}, protocols.Settings{Players: c.players})
			res, tr, err := prototest.QueryWithin(t, q, netip.AddrPortFrom(target.Addr(), c.port), 2*time.Second)
			prototest.CheckProbe(t, res, tr, err, c.want)
			prototest.CheckBots(t, res, res.Players.Value, prototest.Unknown, false) // no bots; the list holds those with a nickname
			u := f.lastURL.Load().(*url.URL).Query()
			if f.requests.Load() != 1 || tr.Attempts != 1 || u["players"][0] != "true" || u["info"][0] != "true" || (u["list"] != nil) != c.players {
				t.Errorf("%d requests (%d attempts), query %v", f.requests.Load(), tr.Attempts, u)
			}
			prototest.NoSecrets(t, q, tr, nil, apiKey)
		})
	}
}

func TestQueryFailures(t *testing.T) {
	write := prototest.HookReply
	type failure struct {
		name string
		o    Options
		at   uint16
		hook func(w http.ResponseWriter, r *http.Request) bool
		want error
		msg  string
	}
	cases := []failure{
		{"no account", Options{}, 7777, nil, wire.ErrServer, `the module names no account`},
		{"wrong key", Options{AccountID: account, APIKey: "wrong"}, 7777, nil, wire.ErrServer,
			`Northwood serverinfo refused: "Access denied" (check account_id and the API key)`},
		{"wrong account", Options{AccountID: "1", APIKey: apiKey}, 7777, nil, wire.ErrServer, `refused: "Access denied"`},
		{"no server on port", Options{AccountID: account, APIKey: apiKey}, 27015, nil, wire.ErrNotListed,
			"the account lists no server on port 27015 (3 servers; server_id picks one)"},
		{"no such server id", Options{AccountID: account, APIKey: apiKey, ServerID: 5}, 7777, nil, wire.ErrNotListed,
			"the account lists no server 5 (3 servers)"},
		{"offline", Options{AccountID: account, APIKey: apiKey}, 7779, nil, wire.ErrServer, "Northwood lists server 20103 (port 7779) offline"},
		{"rate limited 429", Options{AccountID: account, APIKey: apiKey}, 7777, write(429, `{"Success":false,"Error":"Rate limit exceeded","Cooldown":12}`),
			wire.ErrServer, `Northwood serverinfo (HTTP 429) rate-limits the account, cooldown 12 s: probe it less often ("Rate limit exceeded")`},
		{"rate limited bare", Options{AccountID: account, APIKey: apiKey}, 7777, write(429, "slow down"),
			wire.ErrServer, "Northwood rate-limits serverinfo (HTTP 429)"},
		{"key echoed", Options{AccountID: account, APIKey: apiKey}, 7777, write(401, `{"Success":false,"Error":"bad key `+apiKey+`"}`),
			wire.ErrServer, `(HTTP 401) refused: "bad key <secret>"`},
		{"html error page", Options{AccountID: account, APIKey: apiKey}, 7777, write(502, "<html>proxy page</html>"),
			wire.ErrServer, "HTTP 502 Bad Gateway"},
		{"lying JSON", Options{AccountID: account, APIKey: apiKey}, 7777, write(200, `{"Success":true,"Servers":[{"ID":1,"Port":7777,"Online":true,"Players":"7/3","Info":"eA=="}]}`),
			nil, ""},
		{"negative players", Options{AccountID: account, APIKey: apiKey}, 7777, write(200, `{"Success":true,"Servers":[{"ID":1,"Port":7777,"Players":"-1/3","Info":"eA=="}]}`),
			wire.ErrMalformed, "count out of 0..1000"},
		{"not the answer", Options{AccountID: account, APIKey: apiKey}, 7777, write(200, `{"servers":[]}`),
			wire.ErrMalformed, "serverinfo answer without Success"},
	}
	for _, h := range prototest.HTTPHazards(t, maxBody) {
		cases = append(cases, failure{h.Name, Options{AccountID: account, APIKey: apiKey}, 7777, prototest.Hook(h.Handler), h.Want, h.Msg})
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			f := &fakeNorthwood{t: t, hook: c.hook}
			srv, _ := prototest.HTTP(t, f, false)
			q := api.Against(t, srv, c.o, protocols.Settings{Players: true})
			res, tr, err := prototest.QueryWithin(t, q, netip.AddrPortFrom(target.Addr(), c.at), prototest.FailureDeadline(c.want))
			if c.want == nil {
				// a count over the maximum is the server's to say: kept as sent
				if err != nil || res.Players.Value != 7 || res.MaxPlayers.Value != 3 {
					t.Fatalf("res %+v, err %v", res, err)
				}
				return
			}
			prototest.CheckFailed(t, res, err, c.want, c.msg, "proxy page", prototest.Unquoted)
			prototest.NoSecrets(t, q, tr, err, apiKey)
			if len(tr.Phases) != 1 || tr.Phases[0].Name != "info" {
				t.Errorf("phases %+v", tr.Phases)
			}
			if c.o.AccountID == "" && f.requests.Load() != 0 {
				t.Errorf("%d requests without an account", f.requests.Load())
			}
		})
	}
}

// Northwood's certificate is verified: a fake signed by an unknown CA is refused
// before the key is sent.
func TestQueryTLSVerified(t *testing.T) {
	f := &fakeNorthwood{t: t}
	srv, _ := prototest.HTTP(t, f, true)
	q := api.Against(t, srv, Options{AccountID: account, APIKey: apiKey}, protocols.Settings{})
	prototest.UntrustedRefused(t, q, &q.api, f.requests.Load)
}

// The request goes to Northwood whatever the target: the base is
// api.scpslgame.com over https, and no target or option changes it.
func TestBaseFixed(t *testing.T) {
	q := api.Fixed(t, Options{AccountID: account, APIKey: apiKey}, "https://api.scpslgame.com")
	prototest.NoSecrets(t, q, nil, nil, apiKey)
}

func TestNewOptions(t *testing.T) {
	prototest.NewOptions(t, newQuerier, []prototest.OptionsCase[Options]{
		{Options: Options{}},
		{Options: Options{AccountID: account, APIKey: apiKey}},
		{Options: Options{AccountID: "../x"}, Bad: "numeric id"},
		{Options: Options{ServerID: -1}, Bad: "server_id -1"},
		{Options: Options{APIKey: "a", APIKeyFile: "/nonexistent"}, Bad: "api_key"},
		{Options: Options{APIKeyFile: "/nonexistent/key"}, Bad: "api_key"},
		{Options: Options{CAFile: "/nonexistent/ca.pem"}, Bad: "ca_file"},
	})
}

// The contract's fake servers (a closed port, a silent one) stand for Northwood.
func TestQuerierContract(t *testing.T) {
	prototest.QuerierContract(t, prototest.Contract{
		Protocol: api.Probed(), Name: "scpsl", DefaultPort: 7777, Transport: "tcp",
		Settings: protocols.Settings{Options: prototest.OptionsOf(Options{AccountID: account, APIKey: apiKey})},
	})
}
