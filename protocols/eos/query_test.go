package eos

import (
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"net/netip"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/gameserver-exporter/gameserver_exporter/protocols"
	"github.com/gameserver-exporter/gameserver_exporter/protocols/prototest"
	"github.com/gameserver-exporter/gameserver_exporter/protocols/wire"
)

// The target of every test: a documentation address that is never contacted
// (the querier only talks to the API, here a fake on loopback).
var target = netip.MustParseAddrPort("203.0.113.10:7777")

// fakeEOS is Epic's web API as the querier uses it: the token endpoint checks
// the client credentials and the deployment, the filter endpoint the bearer
// token and the criteria, and answers the sessions of a vector whose address
// attribute equals the criterion's value.
type fakeEOS struct {
	t           testing.TB
	id, secret  string
	deployment  string
	prefix      string
	sessions    []byte // body of a filter answer
	expiresIn   int
	signIns     atomic.Int32
	searches    atomic.Int32
	mu          sync.Mutex
	valid       map[string]bool
	filterHook  func(w http.ResponseWriter, r *http.Request) bool // true: the hook answered
	tokenHook   func(w http.ResponseWriter, r *http.Request) bool
	lastFilters []string
	// deviceID makes it a deployment searched with user tokens only: the
	// token endpoint grants external_auth for a device-id account's token, and
	// the filter refuses client tokens (as Squad's and Renown's do).
	deviceID   bool
	devices    map[string]bool // device-id account tokens handed out
	deviceHook func(w http.ResponseWriter, r *http.Request) bool
	nonces     []string
}

// newFake is the deployment of the ARK preset.
func newFake(t testing.TB) *fakeEOS { return fakeFor(t, "arksa") }

// fakeFor is the deployment of a preset, with its sessions vector.
func fakeFor(t testing.TB, preset string) *fakeEOS {
	p := presets[preset]
	return &fakeEOS{t: t, id: p.clientID, secret: p.clientSecret, deployment: p.deploymentID, prefix: p.pathPrefix, deviceID: p.auth == authDeviceID,
		sessions: prototest.File(t, "sessions_"+preset+".json"), expiresIn: 3599, valid: map[string]bool{}, devices: map[string]bool{}}
}

// badClient is Epic's answer to wrong client credentials.
func badClient(w http.ResponseWriter) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(http.StatusUnauthorized)
	w.Write([]byte(`{"errorCode":"errors.com.epicgames.account.invalid_client_credentials","errorMessage":"Sorry the client credentials you are using are invalid","error":"invalid_client"}`))
}

func (f *fakeEOS) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	switch r.URL.Path {
	case "/auth/v1/accounts/deviceid":
		if f.deviceHook != nil && f.deviceHook(w, r) {
			return
		}
		id, secret, ok := r.BasicAuth()
		if r.Method != http.MethodPost || r.ParseForm() != nil || r.PostForm.Get("deviceModel") == "" {
			http.Error(w, `{"error":"invalid_request"}`, http.StatusBadRequest)
			return
		}
		if !ok || id != f.id || secret != f.secret {
			badClient(w)
			return
		}
		f.mu.Lock()
		tok := fmt.Sprintf("device+%d/=", len(f.devices)) // characters the form must escape
		f.devices[tok] = true
		f.mu.Unlock()
		w.Header().Set("Content-Type", "application/json")
		json.NewEncoder(w).Encode(map[string]any{"access_token": tok, "token_type": "bearer", "expires_at": "2026-01-01T00:00:00.000Z"})
	case "/auth/v1/oauth/token":
		f.signIns.Add(1)
		if f.tokenHook != nil && f.tokenHook(w, r) {
			return
		}
		id, secret, ok := r.BasicAuth()
		grant := "client_credentials"
		if f.deviceID {
			grant = "external_auth"
		}
		if r.Method != http.MethodPost || r.ParseForm() != nil || r.PostForm.Get("grant_type") != grant {
			http.Error(w, `{"errorCode":"errors.com.epicgames.common.oauth.unsupported_grant_type","error":"unsupported_grant_type"}`, http.StatusBadRequest)
			return
		}
		if !ok || id != f.id || secret != f.secret || r.PostForm.Get("deployment_id") != f.deployment {
			badClient(w)
			return
		}
		if f.deviceID {
			f.mu.Lock()
			known := f.devices[r.PostForm.Get("external_auth_token")]
			f.nonces = append(f.nonces, r.PostForm.Get("nonce"))
			f.mu.Unlock()
			if r.PostForm.Get("external_auth_type") != "deviceid_access_token" || !known || r.PostForm.Get("nonce") == "" {
				w.WriteHeader(http.StatusBadRequest)
				w.Write([]byte(`{"errorCode":"errors.com.epicgames.oauth.invalid_external_auth_token","error":"invalid_grant"}`))
				return
			}
		}
		tok := fmt.Sprintf("token-%d", f.signIns.Load())
		f.mu.Lock()
		f.valid[tok] = true
		f.mu.Unlock()
		w.Header().Set("Content-Type", "application/json")
		json.NewEncoder(w).Encode(map[string]any{"access_token": tok, "token_type": "bearer", "expires_in": f.expiresIn})
	case f.prefix + "/matchmaking/v1/" + f.deployment + "/filter":
		f.searches.Add(1)
		if f.filterHook != nil && f.filterHook(w, r) {
			return
		}
		f.mu.Lock()
		ok := f.valid[strings.TrimPrefix(r.Header.Get("Authorization"), "Bearer ")]
		f.mu.Unlock()
		if !ok {
			w.WriteHeader(http.StatusUnauthorized)
			w.Write([]byte(`{"errorCode":"errors.com.epicgames.common.authentication.token_verification_failed"}`))
			return
		}
		var req struct {
			Criteria   []struct{ Key, Op, Value string }
			MaxResults int
		}
		if r.Method != http.MethodPost || json.NewDecoder(r.Body).Decode(&req) != nil || len(req.Criteria) != 1 || req.MaxResults != maxResults {
			http.Error(w, "bad filter", http.StatusBadRequest)
			return
		}
		c := req.Criteria[0]
		f.mu.Lock()
		f.lastFilters = append(f.lastFilters, c.Key+" "+c.Op+" "+c.Value)
		f.mu.Unlock()
		var all struct{ Sessions []map[string]any }
		json.Unmarshal(f.sessions, &all)
		out := []map[string]any{}
		for _, s := range all.Sessions {
			if attrs, _ := s["attributes"].(map[string]any); attrs["ADDRESS_s"] == c.Value && c.Key == "attributes.ADDRESS_s" && c.Op == "EQUAL" {
				out = append(out, s)
			}
		}
		w.Header().Set("Content-Type", "application/json")
		json.NewEncoder(w).Encode(map[string]any{"sessions": out, "count": len(out)})
	default:
		http.NotFound(w, r)
	}
}

// newFor builds a querier for the fake at base, trusting the TLS fake's certificate.
func newFor(t testing.TB, srv *httptest.Server, o Options, s protocols.Settings) *querier {
	t.Helper()
	o.APIBase = srv.URL
	s.Options = prototest.OptionsOf(o)
	q := prototest.MustNew(t, Protocol, s).(*querier)
	q.api.RootCAs = prototest.TrustOf(srv)
	return q
}

// A token with a short life is not kept: each probe signs in; a kept token the
// API refuses is replaced within the same probe, once.
func TestQueryTokenLife(t *testing.T) {
	for _, c := range []struct {
		name      string
		expiresIn int
		revoke    bool
		searches  int32
	}{
		{"short life", 20, false, 2},
		{"revoked", 3599, true, 3},
	} {
		t.Run(c.name, func(t *testing.T) {
			f := newFake(t)
			f.expiresIn = c.expiresIn
			srv, _ := prototest.HTTP(t, f, false)
			q := newFor(t, srv, Options{}, protocols.Settings{})
			prototest.WithinOK(t, q, target, 2*time.Second)
			if c.revoke {
				f.mu.Lock()
				clear(f.valid)
				f.mu.Unlock()
			}
			res, tr, err := prototest.QueryWithin(t, q, target, 2*time.Second)
			if err != nil || res.Name == "" || f.signIns.Load() != 2 || f.searches.Load() != c.searches || prototest.PhaseNames(tr) != "challenge,info" {
				t.Errorf("%v: %d sign-ins, %d searches, phases %s", err, f.signIns.Load(), f.searches.Load(), prototest.PhaseNames(tr))
			}
		})
	}
}

// Each preset's whole exchange over TLS gives what its sessions vector says of
// the target; the token is kept for the second probe and never shown. Squad
// and Renown sign in by device id: a device-id account, its token traded for a
// user token, then the search.
func TestQueryPresets(t *testing.T) {
	for _, c := range []struct{ preset, target string }{
		{"arksa", "203.0.113.10:7777"}, {"theisle", "203.0.113.20:7777"}, {"squad", "203.0.113.30:7787"}, {"renown", "203.0.113.40:7777"},
	} {
		t.Run(c.preset, func(t *testing.T) {
			f, w, addr := fakeFor(t, c.preset), sessionCase(t, c.preset, c.target), netip.MustParseAddrPort(c.target)
			srv, _ := prototest.HTTP(t, f, true)
			q := newFor(t, srv, Options{Preset: c.preset}, protocols.Settings{Rules: w.Rules > 0})
			res, tr := prototest.WithinOK(t, q, addr, 2*time.Second)
			prototest.CheckResult(t, res, *w.Result)
			if attempts := 2 + len(f.devices); len(res.Rules) != w.Rules || prototest.PhaseNames(tr) != "challenge,info" || tr.Attempts != attempts {
				t.Errorf("%d rules, phases %s, %d requests", len(res.Rules), prototest.PhaseNames(tr), tr.Attempts)
			}
			if got := f.lastFilters; len(got) != 1 || got[0] != "attributes.ADDRESS_s EQUAL "+addr.Addr().String() {
				t.Errorf("filters %q", got)
			}
			prototest.NoSecrets(t, nil, tr, nil, "device+0", "device%2B0", "token-1", f.secret)
			var sent []string
			for _, p := range tr.Packets {
				if s := string(p.Data); p.Dir == wire.Sent {
					sent = append(sent, strings.Fields(s)[1])
					if f.deviceID && strings.HasPrefix(s, "POST /auth/v1/oauth/token") && !strings.Contains(s, "external_auth_token=<secret>&") {
						t.Errorf("the token exchange is not recorded masked: %q", s)
					}
				}
			}
			want := "/auth/v1/oauth/token " + f.prefix + "/matchmaking/v1/" + f.deployment + "/filter"
			if f.deviceID {
				want = "/auth/v1/accounts/deviceid " + want
				if len(f.nonces) != 1 || len(f.nonces[0]) < 16 {
					t.Errorf("nonces %q", f.nonces)
				}
			}
			if strings.Join(sent, " ") != want {
				t.Errorf("requests %q, want %s", sent, want)
			}
			_, tr, err := prototest.QueryWithin(t, q, addr, 2*time.Second)
			if err != nil || prototest.PhaseNames(tr) != "info" || f.signIns.Load() != 1 || len(f.devices) > 1 {
				t.Errorf("second probe: %v, phases %s, %d sign-ins, %d device accounts: the token was not kept", err, prototest.PhaseNames(tr), f.signIns.Load(), len(f.devices))
			}
		})
	}
}

// Credentials of one's own, the secret read from a file; probes of one module
// starting together sign in once.
func TestQueryCustomCredentials(t *testing.T) {
	f := newFake(t)
	f.id, f.secret, f.deployment, f.prefix = "myclient", "s3cret", "mydeployment", ""
	srv, _ := prototest.HTTP(t, f, false)
	file := filepath.Join(t.TempDir(), "secret")
	prototest.WriteFile(t, file, "s3cret\n")
	q := newFor(t, srv, Options{ClientID: "myclient", ClientSecretFile: file, DeploymentID: "mydeployment"}, protocols.Settings{})
	prototest.SignsInOnce(t, q, target, f.signIns.Load)
}

// Each failure says which step refused what, and quotes neither a body nor the
// secret; device: the deployment signs in by device id (squad).
func TestQueryFailures(t *testing.T) {
	type failure struct {
		name   string
		device bool
		setup  func(f *fakeEOS)
		opts   Options
		want   error
		msg    string
		phases string
	}
	arksa, squad := presets["arksa"], presets["squad"]
	deviceHook := func(h http.HandlerFunc) func(f *fakeEOS) {
		return func(f *fakeEOS) { f.deviceHook = prototest.Hook(h) }
	}
	cases := []failure{
		{"wrong secret", false, nil, Options{ClientID: arksa.clientID, ClientSecret: "wrong", DeploymentID: arksa.deploymentID, Preset: "arksa"},
			wire.ErrServer, "authentication failed (HTTP 401, errors.com.epicgames.account.invalid_client_credentials)", "challenge"},
		{"rights withdrawn", false, func(f *fakeEOS) {
			f.filterHook = prototest.HookReply(http.StatusForbidden, string(prototest.File(f.t, "error_policy.json")))
		}, Options{}, wire.ErrServer, "may not search sessions", "challenge,info"},
		{"no session", false, func(f *fakeEOS) { f.sessions = []byte(`{"sessions":[]}`) }, Options{},
			wire.ErrServer, "no EOS session advertises 203.0.113.10:7777: the server is down or unlisted", "challenge,info"},
		{"html error page at sign-in", false, func(f *fakeEOS) { f.tokenHook = prototest.HookReply(502, "<html>internal proxy page</html>") },
			Options{}, wire.ErrServer, "HTTP 502", "challenge"},
		{"token not JSON", false, func(f *fakeEOS) {
			f.tokenHook = func(w http.ResponseWriter, r *http.Request) bool { w.Write([]byte("ok")); return true }
		}, Options{}, wire.ErrMalformed, "token", "challenge"},
		{"device: wrong secret", true, nil, Options{Preset: "squad", ClientID: squad.clientID, ClientSecret: "wrong", DeploymentID: squad.deploymentID},
			wire.ErrServer, "device-id sign-in failed (HTTP 401, errors.com.epicgames.account.invalid_client_credentials): check client_id and client_secret", "challenge"},
		{"device: wrong deployment", true, nil, Options{Preset: "squad", ClientID: squad.clientID, ClientSecret: protocols.Secret(squad.clientSecret), DeploymentID: "0123456789abcdef"},
			wire.ErrServer, "EOS authentication failed (HTTP 401, errors.com.epicgames.account.invalid_client_credentials)", "challenge"},
		{"device: token refused", true, deviceHook(func(w http.ResponseWriter, r *http.Request) { w.Write([]byte(`{"access_token":"unknown-device"}`)) }),
			Options{Preset: "squad"}, wire.ErrServer, "authentication failed (HTTP 400, errors.com.epicgames.oauth.invalid_external_auth_token)", "challenge"},
		{"device: client credentials where device id is needed", true, nil, Options{Preset: "squad", Auth: "client_credentials"},
			wire.ErrServer, "authentication failed (HTTP 400, errors.com.epicgames.common.oauth.unsupported_grant_type)", "challenge"},
		{"device: answer not JSON", true, deviceHook(func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Content-Type", "text/html")
			w.Write([]byte("<html>proxy page</html>"))
		}), Options{Preset: "squad"}, wire.ErrMalformed, "device-id sign-in: ", "challenge"},
		{"device: answer without token", true, deviceHook(func(w http.ResponseWriter, r *http.Request) { w.Write([]byte(`{"token_type":"bearer"}`)) }),
			Options{Preset: "squad"}, wire.ErrMalformed, "device-id sign-in: malformed: token answer without access_token", "challenge"},
		{"device: endpoint down", true, deviceHook(func(w http.ResponseWriter, r *http.Request) { w.WriteHeader(http.StatusServiceUnavailable) }),
			Options{Preset: "squad"}, wire.ErrServer, "device-id sign-in: HTTP 503 Service Unavailable", "challenge"},
	}
	// The shared hazards at sign-in and at the session filter.
	for _, h := range prototest.HTTPHazards(t, maxTokenBody) {
		cases = append(cases, failure{"sign-in " + h.Name, false, func(f *fakeEOS) { f.tokenHook = prototest.Hook(h.Handler) }, Options{}, h.Want, h.Msg, "challenge"})
	}
	for _, h := range prototest.HTTPHazards(t, maxFilterBody) {
		cases = append(cases, failure{"filter " + h.Name, false, func(f *fakeEOS) { f.filterHook = prototest.Hook(h.Handler) }, Options{}, h.Want, h.Msg, "challenge,info"})
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			f := newFake(t)
			if c.device {
				f = fakeFor(t, "squad")
			}
			if c.setup != nil {
				c.setup(f)
			}
			srv, _ := prototest.HTTP(t, f, false)
			q := newFor(t, srv, c.opts, protocols.Settings{})
			res, tr, err := prototest.QueryWithin(t, q, target, time.Second)
			prototest.CheckFailed(t, res, err, c.want, c.msg, "proxy page", "wrong", prototest.Unquoted)
			if prototest.PhaseNames(tr) != c.phases {
				t.Errorf("phases %s, want %s", prototest.PhaseNames(tr), c.phases)
			}
		})
	}
}

// The API's certificate is verified: a fake signed by an unknown CA is refused,
// secret unsent.
func TestQueryTLSVerified(t *testing.T) {
	f := newFake(t)
	srv, _ := prototest.HTTP(t, f, true)
	q := newFor(t, srv, Options{}, protocols.Settings{})
	prototest.UntrustedRefused(t, q, &q.api, f.signIns.Load)
}

func TestNewOptions(t *testing.T) {
	file := filepath.Join(t.TempDir(), "secret")
	prototest.WriteFile(t, file, "x\n")
	prototest.NewOptions(t, newQuerier, []prototest.OptionsCase[Options]{
		{Options: Options{}},
		{Options: Options{Preset: "theisle"}},
		{Options: Options{APIBase: "http://127.0.0.1:8080"}},
		{Options: Options{APIBase: "http://[::1]:8080/"}},
		{Options: Options{APIBase: "http://api.epicgames.dev"}, Bad: "plain http"},
		{Options: Options{APIBase: "ftp://x"}, Bad: "https"},
		{Options: Options{APIBase: "https://x/?a=b"}, Bad: "scheme://"},
		{Options: Options{Preset: "fortnite"}, Bad: "unknown preset"},
		{Options: Options{Preset: "squad"}},
		{Options: Options{Preset: "renown", Auth: "client_credentials"}},
		{Options: Options{ClientID: "a", ClientSecret: "s", DeploymentID: "d", Auth: "deviceid"}},
		{Options: Options{Auth: "password"}, Bad: "auth \"password\""},
		{Options: Options{ClientID: "a", DeploymentID: "d"}, Bad: "all needed"},
		{Options: Options{ClientID: "a", ClientSecretFile: file, DeploymentID: "d"}},
		{Options: Options{ClientID: "a", ClientSecret: "s", ClientSecretFile: file, DeploymentID: "d"}, Bad: "not both"},
		{Options: Options{ClientID: "a", ClientSecretFile: file + ".missing", DeploymentID: "d"}, Bad: "client_secret"},
		{Options: Options{ClientID: "a", ClientSecret: "s", DeploymentID: "d/../x"}, Bad: "character"},
		{Options: Options{PathPrefix: "wildcard"}, Bad: "path_prefix"},
		{Options: Options{CAFile: file}, Bad: "no PEM"},
	})
	// The secret prints as <secret> wherever the options are shown.
	if s := fmt.Sprintf("%v %+v", Options{ClientSecret: "hunter2"}, Options{ClientSecret: "hunter2"}); strings.Contains(s, "hunter2") {
		t.Errorf("options print the secret: %s", s)
	}
}

// contractProtocol asks the API at the probed address, so that the
// contract's fake servers (a closed port, a silent one) are the API.
var contractProtocol = prototest.OffTarget[*querier, Options]{Protocol: Protocol, API: func(q *querier) *protocols.API { return &q.api }}.
	Probed(func(q *querier) { q.token = protocols.NewSignIn("EOS") }) // the shared one is the API base's

// The client-credentials flow and the device-id one (its first request, the
// device-id account, meets the closed port, the silent server, the cancel).
func TestQuerierContract(t *testing.T) {
	for _, o := range []Options{{}, {Preset: "squad"}} {
		t.Run(o.Preset, func(t *testing.T) {
			prototest.QuerierContract(t, prototest.Contract{
				Protocol: contractProtocol, Name: "eos", DefaultPort: 7777, Transport: "tcp",
				Settings: protocols.Settings{Options: prototest.OptionsOf(o)},
			})
		})
	}
}

// TestReloadKeepsToken (issue 35, L2): a module built again with the same
// credentials (a reload) keeps the token, and so does not sign in again;
// other credentials get their own.
func TestReloadKeepsToken(t *testing.T) {
	build := func(o Options) *querier {
		return prototest.MustNew(t, Protocol, protocols.Settings{Options: prototest.OptionsOf(o)}).(*querier)
	}
	o := Options{ClientID: "a", ClientSecret: "s", DeploymentID: "d"}
	other := o
	other.ClientSecret = "t"
	if a := build(o); a.token != build(o).token || build(other).token == a.token || build(Options{Preset: "theisle"}).token == a.token {
		t.Fatal("the token is not kept for the same credentials only")
	}
}

// BenchmarkQuery is a session search over loopback with a kept token (the
// steady state: one sign-in an hour).
func BenchmarkQuery(b *testing.B) {
	srv, _ := prototest.HTTP(b, newFake(b), false)
	prototest.QueryBench(b, Protocol, protocols.Settings{Options: prototest.OptionsOf(Options{APIBase: srv.URL})}, target)
}
