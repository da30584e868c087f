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

// startLQ answers the Lightweight Query on the UDP port of the same number as the
// API's TCP port, as a dedicated server does on 7777: with the vector, or never
// when it is empty.
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

// summary is what a flow gives: the result's name/version/state/players/max/
// sub-states and its phase errors (phase:reason), or the error's reason.
func summary(res *protocols.Result, err error) string {
	if err != nil {
		return wire.Reason(err)
	}
	count := func(c protocols.Count) string {
		if !c.Known {
			return "?"
		}
		return fmt.Sprint(c.Value)
	}
	return fmt.Sprintf("%s/%s/%s/%s/%s/%d %s", res.Name, res.Version, res.State, count(res.Players), count(res.MaxPlayers), len(res.SubStates), prototest.PhaseErrorReasons(res))
}

// The API's flows beside the Lightweight Query: the LQ's name and build stay
// and the API adds the players, the limit, the session and the tech tier; a
// failed API leaves the LQ's result and a phase error; a silent UDP port costs
// half the time and leaves the API's fields with no name; a token file skips
// the login; a client password or a wrong token fails. No token shows.
func TestAPIFlows(t *testing.T) {
	dir := t.TempDir()
	tokenFile, goodCA, foreignCA := filepath.Join(dir, "token"), filepath.Join(dir, "good.pem"), filepath.Join(dir, "foreign.pem")
	prototest.WriteFile(t, tokenFile, apiToken+"\n")
	// httptest servers share one certificate; a foreign CA is made here.
	srv, _ := prototest.HTTP(t, &fakeAPI{}, true)
	prototest.WriteFile(t, goodCA, string(pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: srv.Certificate().Raw})))
	foreign, _ := prototest.SelfSigned(t)
	prototest.WriteFile(t, foreignCA, string(foreign))
	vec := prototest.HexFile(t, "playing_djwoodz.hex")
	type flow struct {
		name     string
		password bool   // the server has a client password: no passwordless login
		lq       []byte // the Lightweight Query's answer; empty: silence
		set      func(*Options)
		d        time.Duration
		want     string   // summary
		says     []string // what the error, or the phase error, says
		phases   string
		calls    int32            // API requests (-1: not counted)
		override http.HandlerFunc // the API instead
	}
	flows := []flow{
		{"passwordless", false, vec, nil, 2 * time.Second, "Satisfactory Server/366202/playing/3/4/4 ", nil, "info:true,login:true,players:true", 2, nil},
		{"api fails", true, vec, nil, 4 * time.Second, "Satisfactory Server/366202/playing/?/?/4 login:server_error", []string{"token_file"}, "info:true,login:false", 1, nil},
		{"udp silent", false, []byte{}, nil, time.Second, "//playing/3/4/0 info:timeout", nil, "info:false,login:true,players:true", 2, nil},
		{"token file", true, []byte{}, func(o *Options) { o.TokenFile = tokenFile }, time.Second, "//playing/3/4/0 info:timeout", nil, "info:false,players:true", 1, nil},
		{"client password", true, []byte{}, nil, time.Second, "server_error", []string{"passwordless_login_not_possible", "token_file"}, "info:false,login:false", 1, nil},
		{"wrong token", true, []byte{}, func(o *Options) { o.Token = "revoked.00" }, time.Second, "server_error", []string{"authentication failed", "invalid_token"}, "info:false,players:false", 1, nil},
		{"server's own CA", false, vec, func(o *Options) { o.CAFile = goodCA }, 2 * time.Second, "Satisfactory Server/366202/playing/3/4/4 ", nil, "info:true,login:true,players:true", 2, nil},
		{"foreign CA", false, vec, func(o *Options) { o.CAFile = foreignCA }, 2 * time.Second, "Satisfactory Server/366202/playing/?/?/4 login:mismatch", []string{"certificate"}, "info:true,login:false", 0, nil},
	}
	for _, h := range prototest.HTTPHazards(t, apiMaxBody) {
		flows = append(flows, flow{"api " + h.Name, false, nil, nil, h.Deadline, wire.Reason(h.Want), []string{h.Msg}, "info:false,login:false", -1, h.Handler})
	}
	for _, c := range flows {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			f := &fakeAPI{clientPassword: c.password, override: c.override}
			_, addr := prototest.HTTP(t, f, true)
			startLQ(t, addr.Port(), c.lq)
			res, tr, err := apiQuery(t, addr, apiOpts(c.set), c.d)
			if got := summary(res, err); err != nil && res != nil || got != c.want || prototest.PhaseResults(tr) != c.phases || c.calls >= 0 && f.calls.Load() != c.calls {
				t.Errorf("%s, phases %s, %d calls; want %s, %s, %d", got, prototest.PhaseResults(tr), f.calls.Load(), c.want, c.phases, c.calls)
			}
			said := fmt.Sprint(err)
			if res != nil && len(res.PhaseErrors) > 0 {
				said = res.PhaseErrors[0].Err.Error()
			}
			for _, s := range c.says {
				if !strings.Contains(said, s) {
					t.Errorf("%q does not say %q", said, s)
				}
			}
			if strings.Contains(said, prototest.Unquoted) {
				t.Errorf("%q quotes the body", said)
			}
			if s := prototest.Transcript(tr); strings.Contains(s, issuedToken) || strings.Contains(s, apiToken) {
				t.Errorf("transcript shows a token:\n%s", s)
			}
			if c.name == "passwordless" {
				if !strings.Contains(prototest.Transcript(tr), "QueryServerState") {
					t.Error("the transcript lost the exchange")
				}
				prototest.CheckInfoHas(t, res, map[string]string{"active_session_name": "Northern Forest Factory", "tech_tier": "5", "changelist": "366202"})
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
		_, addr := prototest.HTTP(t, &fakeAPI{}, true)
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

func BenchmarkQueryAPI(b *testing.B) {
	_, addr := prototest.HTTP(b, &fakeAPI{}, true)
	q := prototest.MustNew(b, Protocol, protocols.Settings{Options: apiOpts(nil)})
	tr := wire.NewTrace()
	b.ReportAllocs()
	for b.Loop() { // no Lightweight Query server: its phase fails, the API answers
		tr.Reset()
		if _, err := q.Query(prototest.Context(b, 2*time.Second), protocols.At(addr), tr); err != nil {
			b.Fatal(err)
		}
	}
}
