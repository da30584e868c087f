package hawakening

import (
	"encoding/json"
	"fmt"
	"net/http"
	"net/netip"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/gameserver-exporter/gameserver_exporter/protocols"
	"github.com/gameserver-exporter/gameserver_exporter/protocols/prototest"
	"github.com/gameserver-exporter/gameserver_exporter/protocols/wire"
)

const (
	password = "correct horse battery"
	guid     = "aaaaaaaa-0000-4000-8000-000000000001"
)

// The target of every test: a documentation address that is never contacted.
var target = netip.MustParseAddrPort("203.0.113.10:7777")

// fakeMeteor answers as gamedig says the backend does: a grant for the right
// password, the listing (a vector) for the current grant, a 401 envelope for
// any other.
type fakeMeteor struct {
	t          testing.TB
	hook       func(w http.ResponseWriter, r *http.Request) bool
	listHook   func(w http.ResponseWriter, r *http.Request) bool
	signIns    atomic.Int32
	lists      atomic.Int32
	mu         sync.Mutex
	grant      string // the grant the backend accepts now
	grantCount int
}

func (f *fakeMeteor) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if f.hook != nil && f.hook(w, r) {
		return
	}
	w.Header().Set("Content-Type", "application/json")
	envelope := func(status int, msg string, result any) {
		b, _ := json.Marshal(map[string]any{"Status": status, "Message": msg, "Result": result})
		w.Write(b)
	}
	switch {
	case r.Method == http.MethodPost && r.URL.Path == "/users/"+user+"/accessGrant":
		f.signIns.Add(1)
		var body struct{ Password *string }
		if json.NewDecoder(r.Body).Decode(&body) != nil || body.Password == nil {
			w.WriteHeader(http.StatusBadRequest)
			envelope(400, "Access Grant Not Issued: Unrecognized options for login request", nil)
			return
		}
		if *body.Password != password {
			w.WriteHeader(http.StatusUnauthorized)
			w.Write(prototest.File(f.t, "signin_wrong_password.json"))
			return
		}
		f.mu.Lock()
		f.grantCount++
		f.grant = fmt.Sprintf("grant-%d", f.grantCount)
		g := f.grant
		f.mu.Unlock()
		envelope(200, "User Logged In", g)
	case r.Method == http.MethodPost && strings.HasPrefix(r.URL.Path, "/users/"):
		w.WriteHeader(http.StatusNotFound)
		w.Write(prototest.File(f.t, "signin_unknown_user.json"))
	case r.Method == http.MethodGet && r.URL.Path == "/gameServerListings":
		f.lists.Add(1)
		if f.listHook != nil && f.listHook(w, r) {
			return
		}
		f.mu.Lock()
		ok := f.grant != "" && r.Header.Get("Authorization") == "Basic "+f.grant
		f.mu.Unlock()
		if !ok {
			w.WriteHeader(http.StatusUnauthorized)
			envelope(401, "Unauthorized", nil)
			return
		}
		w.Write(prototest.File(f.t, "listings_basic.json"))
	default:
		w.WriteHeader(http.StatusNotFound)
		envelope(404, "Not found", nil)
	}
}

// revoke makes the backend refuse the grant it gave.
func (f *fakeMeteor) revoke() {
	f.mu.Lock()
	f.grant = ""
	f.mu.Unlock()
}

func goodOptions() Options {
	return Options{Username: user, Password: password, ServerGUID: guid}
}

// api is the protocol's API, for its tests.
var api = prototest.OffTarget[*querier, Options]{Protocol: Protocol, API: func(q *querier) *protocols.API { return &q.api }}

// newFor starts f (over TLS when tls is set) and builds a querier with o
// whose requests go to it, trusting its certificate.
func newFor(t testing.TB, f *fakeMeteor, tls bool, o Options) *querier {
	srv, _ := prototest.HTTP(t, f, tls)
	hq := api.Against(t, srv, o, protocols.Settings{Players: true})
	hq.grant = protocols.NewSignIn("Hawakening") // the shared one is the real backend's
	return hq
}

// The whole exchange over TLS: sign in, read the listing, pick the server; a
// second probe reuses the grant; neither the password nor the grant shows in
// a trace.
func TestQuery(t *testing.T) {
	f := &fakeMeteor{t: t}
	q := newFor(t, f, true, goodOptions())
	for i, phases := range []string{"challenge:ok,info:ok", "info:ok"} {
		res, tr, err := prototest.QueryWithin(t, q, target, 2*time.Second)
		prototest.CheckProbe(t, res, tr, err, `"Example EU TDM ü" "VS-Facility" "" "2.1.5" 3/12 bots ? pw 1 - rules - info 6 partial [] | `+phases+` skipped 0 log 0`)
		prototest.CheckBots(t, res, 3, prototest.Unknown, false) // Users: pilots' account Guids, no bots (nor names)
		prototest.NoSecrets(t, q, tr, nil, password, "grant-1")
		if text := prototest.Transcript(tr); i == 0 && !strings.Contains(text, `{"Password":"<secret>"}`) {
			t.Errorf("the trace does not show the masked sign-in:\n%s", text)
		}
	}
	if f.signIns.Load() != 1 || f.lists.Load() != 2 {
		t.Errorf("%d sign-ins, %d listings", f.signIns.Load(), f.lists.Load())
	}
}

// A kept grant the backend refuses is replaced once, within the probe.
func TestGrantRefused(t *testing.T) {
	f := &fakeMeteor{t: t}
	q := newFor(t, f, false, goodOptions())
	prototest.WithinOK(t, q, target, 2*time.Second)
	f.revoke()
	res, _, err := prototest.QueryWithin(t, q, target, 2*time.Second)
	if err != nil || res.Name != "Example EU TDM ü" {
		t.Fatalf("res %+v, err %v", res, err)
	}
	if f.signIns.Load() != 2 || f.lists.Load() != 3 {
		t.Errorf("%d sign-ins, %d listings", f.signIns.Load(), f.lists.Load())
	}
}

// Probes of one module at once sign in once.
func TestConcurrentProbesSignInOnce(t *testing.T) {
	f := &fakeMeteor{t: t}
	prototest.SignsInOnce(t, newFor(t, f, false, goodOptions()), target, f.signIns.Load)
}

func TestQueryFailures(t *testing.T) {
	write := prototest.HookReply
	with := func(mod func(*Options)) Options { o := goodOptions(); mod(&o); return o }
	type failure struct {
		name      string
		o         Options
		hook      func(w http.ResponseWriter, r *http.Request) bool
		listHook  func(w http.ResponseWriter, r *http.Request) bool
		want      error
		msg       string
		noRequest bool
	}
	cases := []failure{
		{"no account", with(func(o *Options) { o.Username = "" }), nil, nil, wire.ErrServer, "the module names no account", true},
		{"no server", with(func(o *Options) { o.ServerGUID = "" }), nil, nil, wire.ErrServer, "the module names no server (hawakening: {server_guid: ...})", true},
		{"wrong password", with(func(o *Options) { o.Password = "wrong" }), nil, nil, wire.ErrServer,
			`Hawakening refused the password of user "pilot@example.com": check password_file`, false},
		{"unknown user", with(func(o *Options) { o.Username = "nobody@example.com" }), nil, nil, wire.ErrServer,
			`Hawakening knows no user "nobody@example.com": check username`, false},
		{"server not listed", with(func(o *Options) { o.ServerGUID = "bbbbbbbb-0000-4000-8000-000000000009" }), nil, nil, wire.ErrNotListed,
			"the Hawakening listing holds no server bbbbbbbb-0000-4000-8000-000000000009 (2 servers): it is down, or server_guid is wrong", false},
		{"sign-in rate limited", goodOptions(), write(429, "slow down"), nil, wire.ErrServer, "Hawakening rate-limits sign-ins (HTTP 429)", false},
		{"listing rate limited", goodOptions(), nil, write(429, `{"Status":429,"Message":"Too many requests"}`), wire.ErrServer,
			"Hawakening rate-limits the server listing (HTTP 429)", false},
		{"fresh grant refused", goodOptions(), nil, write(401, `{"Status":401,"Message":"Unauthorized"}`), wire.ErrServer,
			"Hawakening refused a fresh access grant for the server listing (HTTP 401, Status 401)", false},
		{"lying listing", goodOptions(), nil, write(200, `{"Status":200,"Message":"Listings found","Result":[{"Guid":"`+guid+`","MaxUsers":99999,"Users":[]}]}`),
			wire.ErrMalformed, "MaxUsers 99999 out of 0..1000", false},
		{"listing not a list", goodOptions(), nil, write(200, `{"Status":200,"Message":"Listings found","Result":"nope"}`),
			wire.ErrMalformed, "no list of servers", false},
		{"html error page", goodOptions(), write(502, "<html>proxy page</html>"), nil, wire.ErrServer, "Hawakening sign-in: HTTP 502, Status 502", false},
	}
	// The shared hazards at sign-in and at the listing.
	for _, h := range prototest.HTTPHazards(t, maxGrantBody) {
		cases = append(cases, failure{"sign-in " + h.Name, goodOptions(), prototest.Hook(h.Handler), nil, h.Want, h.Msg, false})
	}
	for _, h := range prototest.HTTPHazards(t, maxListBody) {
		cases = append(cases, failure{"listing " + h.Name, goodOptions(), nil, prototest.Hook(h.Handler), h.Want, h.Msg, false})
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			f := &fakeMeteor{t: t, hook: c.hook, listHook: c.listHook}
			q := newFor(t, f, false, c.o)
			res, tr, err := prototest.QueryWithin(t, q, target, prototest.FailureDeadline(c.want))
			prototest.CheckFailed(t, res, err, c.want, c.msg, "proxy page", "grant-1", prototest.Unquoted)
			prototest.NoSecrets(t, q, tr, err, password)
			if c.noRequest && (f.signIns.Load() != 0 || f.lists.Load() != 0) {
				t.Errorf("requests without the options")
			}
		})
	}
}

// The backend's certificate is verified: a fake signed by an unknown CA is
// refused before the password is sent.
func TestQueryTLSVerified(t *testing.T) {
	f := &fakeMeteor{t: t}
	q := newFor(t, f, true, goodOptions())
	prototest.UntrustedRefused(t, q, &q.api, f.signIns.Load)
}

// The requests go to the backend whatever the target: the base is
// hawakening.com over https, and no target or option changes it.
func TestBaseFixed(t *testing.T) {
	api.Fixed(t, goodOptions(), "https://hawakening.com/api")
}

func TestNewOptions(t *testing.T) {
	prototest.NewOptions(t, newQuerier, []prototest.OptionsCase[Options]{
		{Options: Options{}},
		{Options: goodOptions()},
		{Options: Options{Username: "a/b"}, Bad: "username"},
		{Options: Options{Username: strings.Repeat("a", 300)}, Bad: "username"},
		{Options: Options{ServerGUID: "../x"}, Bad: "server_guid"},
		{Options: Options{Password: "a", PasswordFile: "/nonexistent"}, Bad: "password"},
		{Options: Options{PasswordFile: "/nonexistent/pw"}, Bad: "password"},
		{Options: Options{CAFile: "/nonexistent/ca.pem"}, Bad: "ca_file"},
	})
}

// The contract's fake servers (a closed port, a silent one) stand for the
// backend, with a grant of their own (not the real backend's).
func TestQuerierContract(t *testing.T) {
	prototest.QuerierContract(t, prototest.Contract{
		Protocol: api.Probed(func(q *querier) { q.grant = protocols.NewSignIn("Hawakening") }), Name: "hawakening", DefaultPort: 7777, Transport: "tcp",
		Settings: protocols.Settings{Options: prototest.OptionsOf(goodOptions())},
	})
}

// TestReloadKeepsGrant (issue 35, L2): a module built again with the same
// credentials (a reload) keeps the grant, and so does not sign in again;
// other credentials get their own.
func TestReloadKeepsGrant(t *testing.T) {
	build := func(o Options) *querier {
		return prototest.MustNew(t, Protocol, protocols.Settings{Options: prototest.OptionsOf(o)}).(*querier)
	}
	a, b := build(goodOptions()), build(goodOptions())
	other := goodOptions()
	other.Password = "another"
	if a.grant != b.grant || build(other).grant == a.grant {
		t.Fatal("the grant is not kept for the same credentials only")
	}
}
