package satisfactory

import (
	"context"
	"encoding/json"
	"encoding/pem"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"net/netip"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/gameserver-exporter/gameserver_exporter/protocols"
	"github.com/gameserver-exporter/gameserver_exporter/protocols/prototest"
	"github.com/gameserver-exporter/gameserver_exporter/protocols/wire"
)

const (
	issuedToken = "eyJwbCI6IkNsaWVudCJ9.4F2A9C0B7E1D3F5A6B8C9D0E1F2A3B4C" // api_login.json
	apiToken    = "eyJwbCI6IkFQSVRva2VuIn0.C0FFEE"
)

// fakeAPI is a dedicated server's HTTPS API: PasswordlessLogin issues a Client
// token unless clientPassword is set, QueryServerState wants a valid token.
type fakeAPI struct {
	clientPassword bool
	calls          atomic.Int32
	override       http.HandlerFunc // replaces the whole API when set
}

func (f *fakeAPI) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	f.calls.Add(1)
	if f.override != nil {
		f.override(w, r)
		return
	}
	w.Header().Set("Content-Type", "application/json;charset=utf-8")
	if r.Method != http.MethodPost || r.URL.Path != apiPath {
		w.WriteHeader(http.StatusNotFound)
		return
	}
	if r.Header.Get("Content-Type") != "application/json" {
		w.WriteHeader(http.StatusUnsupportedMediaType)
		return
	}
	var req struct {
		Function string
		Data     map[string]string
	}
	if err := json.NewDecoder(r.Body).Decode(&req); err != nil {
		w.WriteHeader(http.StatusBadRequest)
		return
	}
	switch req.Function {
	case "PasswordlessLogin":
		if req.Data["MinimumPrivilegeLevel"] != "Client" {
			w.WriteHeader(http.StatusBadRequest)
			return
		}
		if f.clientPassword {
			w.Write(mustRead("api_login_not_possible.json"))
			return
		}
		w.Write(mustRead("api_login.json"))
	case "QueryServerState":
		auth := r.Header.Get("Authorization")
		if auth != "Bearer "+issuedToken && auth != "Bearer "+apiToken {
			w.WriteHeader(http.StatusUnauthorized)
			w.Write(mustRead("api_invalid_token.json"))
			return
		}
		w.Write(mustRead("api_state_playing.json"))
	default:
		w.WriteHeader(http.StatusNotFound)
	}
}

func mustRead(name string) []byte {
	b, err := os.ReadFile(filepath.Join("testdata", name))
	if err != nil {
		panic(err)
	}
	return b
}

func startAPI(t testing.TB, f *fakeAPI) (*httptest.Server, netip.AddrPort) {
	t.Helper()
	return prototest.HTTP(t, f, true)
}

// startLQ answers the Lightweight Query on the UDP port of the same number as the
// API's TCP port, as a dedicated server does on 7777: with the vector, or never
// when it is nil.
func startLQ(t testing.TB, port uint16, vec []byte) {
	t.Helper()
	pc, err := net.ListenPacket("udp", netip.AddrPortFrom(netip.MustParseAddr("127.0.0.1"), port).String())
	if err != nil {
		t.Fatalf("UDP port %d beside the API: %v", port, err)
	}
	prototest.ServeUDP(t, pc, lq(vec))
}

// apiOpts is the Options func of a module with `satisfactory: {api: true, ...}`.
func apiOpts(set func(*Options)) func(any) error {
	return func(v any) error {
		o := v.(*Options)
		o.API = true
		if set != nil {
			set(o)
		}
		return nil
	}
}

func apiQuery(t *testing.T, addr netip.AddrPort, opts func(any) error, d time.Duration) (*protocols.Result, *wire.Trace, error) {
	t.Helper()
	return prototest.QueryWithin(t, prototest.MustNew(t, Protocol, protocols.Settings{Options: opts}), addr, d)
}

// The Lightweight Query's name and build stay; the API adds the players, the
// limit, the session and the tech tier beside them.
func TestAPIPasswordless(t *testing.T) {
	f := &fakeAPI{}
	_, addr := startAPI(t, f)
	startLQ(t, addr.Port(), loadHex(t, "playing_djwoodz.hex"))
	res, tr, err := apiQuery(t, addr, apiOpts(nil), 2*time.Second)
	if err != nil {
		t.Fatal(err)
	}
	if res.Name != "Satisfactory Server" || res.Version != "366202" || res.State != "playing" ||
		res.Players != protocols.Known(3) || res.MaxPlayers != protocols.Known(4) || len(res.SubStates) != 4 || res.PhaseErrors != nil {
		t.Errorf("result %+v", res)
	}
	info := map[string]string{}
	for _, kv := range res.Info {
		info[kv.Key] = kv.Value
	}
	if info["active_session_name"] != "Northern Forest Factory" || info["tech_tier"] != "5" || info["changelist"] != "366202" {
		t.Errorf("info %v", info)
	}
	if prototest.PhaseResults(tr) != "info:true,login:true,players:true" || f.calls.Load() != 2 {
		t.Errorf("phases %s, %d calls", prototest.PhaseResults(tr), f.calls.Load())
	}
	if s := prototest.Transcript(tr); strings.Contains(s, issuedToken) || !strings.Contains(s, "QueryServerState") {
		t.Errorf("transcript shows the issued token or lost the exchange:\n%s", s)
	}
}

// Either half alone: a failed API leaves the Lightweight Query's result and a
// phase error; a silent UDP port costs half the time and leaves the API's fields
// with no name.
func TestAPIHalves(t *testing.T) {
	t.Run("api_fails", func(t *testing.T) {
		_, addr := startAPI(t, &fakeAPI{clientPassword: true})
		startLQ(t, addr.Port(), loadHex(t, "playing_djwoodz.hex"))
		res, tr, err := apiQuery(t, addr, apiOpts(nil), 4*time.Second)
		if err != nil {
			t.Fatal(err)
		}
		if res.Name != "Satisfactory Server" || res.Players.Known || len(res.PhaseErrors) != 1 || res.PhaseErrors[0].Phase != "login" ||
			!strings.Contains(res.PhaseErrors[0].Err.Error(), "token_file") {
			t.Errorf("result %+v", res)
		}
		if prototest.PhaseResults(tr) != "info:true,login:false" {
			t.Errorf("phases %s", prototest.PhaseResults(tr))
		}
	})
	t.Run("udp_silent", func(t *testing.T) {
		_, addr := startAPI(t, &fakeAPI{})
		startLQ(t, addr.Port(), nil)
		res, tr, err := apiQuery(t, addr, apiOpts(nil), time.Second)
		if err != nil {
			t.Fatal(err)
		}
		if res.Name != "" || res.State != "playing" || res.Players != protocols.Known(3) || len(res.PhaseErrors) != 1 ||
			res.PhaseErrors[0].Phase != "info" || !errors.Is(res.PhaseErrors[0].Err, wire.ErrTimeout) {
			t.Errorf("result %+v", res)
		}
		if prototest.PhaseResults(tr) != "info:false,login:true,players:true" {
			t.Errorf("phases %s", prototest.PhaseResults(tr))
		}
	})
}

func TestAPITokenFile(t *testing.T) {
	f := &fakeAPI{clientPassword: true}
	_, addr := startAPI(t, f)
	file := filepath.Join(t.TempDir(), "token")
	os.WriteFile(file, []byte(apiToken+"\n"), 0o600)
	res, tr, err := apiQuery(t, addr, apiOpts(func(o *Options) { o.TokenFile = file }), 2*time.Second)
	if err != nil {
		t.Fatal(err)
	}
	if res.Players.Value != 3 || prototest.PhaseResults(tr) != "info:false,players:true" || f.calls.Load() != 1 {
		t.Errorf("players %v, phases %s, %d calls: want no login", res.Players, prototest.PhaseResults(tr), f.calls.Load())
	}
	if strings.Contains(prototest.Transcript(tr), apiToken) {
		t.Error("transcript shows the API token")
	}
}

func TestAPIAuthFailures(t *testing.T) {
	f := &fakeAPI{clientPassword: true}
	_, addr := startAPI(t, f)
	_, tr, err := apiQuery(t, addr, apiOpts(nil), 2*time.Second)
	if !errors.Is(err, wire.ErrServer) || !strings.Contains(err.Error(), "passwordless_login_not_possible") || !strings.Contains(err.Error(), "token_file") {
		t.Errorf("client password: %v", err)
	}
	if prototest.PhaseResults(tr) != "info:false,login:false" {
		t.Errorf("phases %s", prototest.PhaseResults(tr))
	}
	_, tr, err = apiQuery(t, addr, apiOpts(func(o *Options) { o.Token = "revoked.00" }), 2*time.Second)
	if !errors.Is(err, wire.ErrServer) || !strings.Contains(err.Error(), "authentication failed") || !strings.Contains(err.Error(), "invalid_token") {
		t.Errorf("wrong token: %v", err)
	}
	if prototest.PhaseResults(tr) != "info:false,players:false" {
		t.Errorf("phases %s", prototest.PhaseResults(tr))
	}
}

func TestAPICAFile(t *testing.T) {
	srv, addr := startAPI(t, &fakeAPI{})
	dir := t.TempDir()
	good := filepath.Join(dir, "good.pem")
	os.WriteFile(good, pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: srv.Certificate().Raw}), 0o600)
	if _, _, err := apiQuery(t, addr, apiOpts(func(o *Options) { o.CAFile = good }), 2*time.Second); err != nil {
		t.Errorf("server's own CA: %v", err)
	}
	// httptest servers share one certificate, so a foreign CA is made here.
	bad := filepath.Join(dir, "bad.pem")
	foreign, _ := prototest.SelfSigned(t)
	os.WriteFile(bad, foreign, 0o600)
	_, _, err := apiQuery(t, addr, apiOpts(func(o *Options) { o.CAFile = bad }), 2*time.Second)
	if !errors.Is(err, wire.ErrMismatch) || !strings.Contains(err.Error(), "certificate") {
		t.Errorf("foreign CA: %v, want a rejected certificate", err)
	}
}

func TestAPIErrors(t *testing.T) {
	for _, h := range prototest.HTTPHazards(t, apiMaxBody) {
		t.Run(h.Name, func(t *testing.T) {
			_, addr := startAPI(t, &fakeAPI{override: h.Handler})
			res, tr, err := apiQuery(t, addr, apiOpts(nil), h.Deadline)
			prototest.CheckFailed(t, res, err, h.Want, h.Msg, prototest.Unquoted)
			if prototest.PhaseResults(tr) != "info:false,login:false" {
				t.Errorf("phases %s", prototest.PhaseResults(tr))
			}
		})
	}
}

// The cases QuerierContract runs for TCP protocols, for the API mode (the
// Protocol itself declares UDP, its default mode).
func TestAPIContractCases(t *testing.T) {
	opts := apiOpts(func(o *Options) { o.Token = apiToken })
	t.Run("refused", func(t *testing.T) {
		_, tr, err := apiQuery(t, prototest.ClosedTCPPort(t), opts, 2*time.Second)
		if !errors.Is(err, wire.ErrRefused) || prototest.PhaseResults(tr) != "info:false,players:false" {
			t.Errorf("err = %v, phases %s", err, prototest.PhaseResults(tr))
		}
	})
	t.Run("silent_tcp_no_tls_handshake", func(t *testing.T) {
		var conns atomic.Int32
		addr := prototest.TCP(t, func(c net.Conn) { conns.Add(1); io.Copy(io.Discard, c) })
		_, tr, err := apiQuery(t, addr, opts, 300*time.Millisecond)
		if !errors.Is(err, wire.ErrTimeout) || prototest.PhaseResults(tr) != "info:false,players:false" || conns.Load() != 1 {
			t.Errorf("err = %v, phases %s, %d connections", err, prototest.PhaseResults(tr), conns.Load())
		}
	})
	t.Run("plain_http", func(t *testing.T) {
		_, addr := prototest.HTTP(t, &fakeAPI{}, false)
		_, _, err := apiQuery(t, addr, opts, 2*time.Second)
		if !errors.Is(err, wire.ErrMalformed) || !strings.Contains(err.Error(), "TLS") {
			t.Errorf("err = %v, want malformed: no TLS", err)
		}
	})
	t.Run("cancelled", func(t *testing.T) {
		_, addr := startAPI(t, &fakeAPI{})
		ctx, cancel := context.WithCancel(context.Background())
		cancel()
		if _, err := prototest.MustNew(t, Protocol, protocols.Settings{Options: opts}).Query(ctx, protocols.At(addr), nil); wire.Reason(err) != "timeout" {
			t.Errorf("err = %v, want a timeout reason", err)
		}
	})
}

func TestAPIOptions(t *testing.T) {
	notPEM := filepath.Join(t.TempDir(), "x.pem")
	prototest.WriteFile(t, notPEM, "not a certificate")
	prototest.OptionsErrors(t, Protocol, prototest.BadOptions{
		"token: t":                  "set api: true",
		"ca_file: " + notPEM:        "set api: true",
		"{api: true, legacy: true}": "exclude each other",
		"{api: true, token: a, token_file: " + notPEM + "}": "satisfactory token",
		"{api: true, token: a b}":                           "satisfactory token",
		"{api: true, token_file: /absent}":                  "satisfactory token",
		"{api: true, ca_file: " + notPEM + "}":              "no PEM certificate",
		"{api: true, ca_file: /absent}":                     "satisfactory ca_file",
	})
	q := prototest.MustNew(t, Protocol, protocols.Settings{Options: apiOpts(func(o *Options) { o.Token = apiToken })})
	if s := fmt.Sprintf("%v %+v %#v", q, q, q); strings.Contains(s, apiToken) {
		t.Errorf("querier prints its token: %s", s)
	}
}
