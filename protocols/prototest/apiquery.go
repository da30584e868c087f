package prototest

import (
	"crypto/x509"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"net/netip"
	"strings"
	"testing"
	"time"

	"github.com/gameserver-exporter/gameserver_exporter/protocols"
	"github.com/gameserver-exporter/gameserver_exporter/protocols/wire"
)

// What the tests of HTTP and API protocols (a server's own web API, or an
// off-target service in a protocols.API) ask of a probe, said once: one traced
// probe, its phases and transcript as text, the secrets it must not show, the
// trust and base of its API, and the options New refuses.

// PhaseNames is the trace's phase names, comma-separated.
func PhaseNames(tr *wire.Trace) string {
	var s []string
	for _, p := range tr.Phases {
		s = append(s, p.Name)
	}
	return strings.Join(s, ",")
}

// PhaseResults is the trace's phases as name:ok, comma-separated
// ("info:true,players:false").
func PhaseResults(tr *wire.Trace) string {
	var s []string
	for _, p := range tr.Phases {
		s = append(s, fmt.Sprintf("%s:%v", p.Name, p.Err == nil))
	}
	return strings.Join(s, ",")
}

// Transcript is everything a trace shows: the transcript the debug output
// prints, each packet's bytes as they are, the log entries and the phase
// errors; a test looks for a secret in it.
func Transcript(tr *wire.Trace) string {
	if tr == nil {
		return ""
	}
	var b strings.Builder
	tr.WriteTranscript(&b)
	for _, p := range tr.Packets {
		b.Write(p.Data)
		b.WriteByte('\n')
	}
	for _, e := range tr.Entries {
		fmt.Fprintf(&b, "%+v\n", e)
	}
	for _, p := range tr.Phases {
		fmt.Fprintf(&b, "%s %v\n", p.Name, p.Err)
	}
	return b.String()
}

// NoSecrets fails the test when any of secrets shows in err, in the trace or
// in how q prints (%v, %+v, %#v).
func NoSecrets(t testing.TB, q protocols.Querier, tr *wire.Trace, err error, secrets ...string) {
	t.Helper()
	var e string
	if err != nil {
		e = err.Error()
	}
	text := map[string]string{"error": e, "trace": Transcript(tr), "querier": fmt.Sprintf("%v %+v %#v", q, q, q)}
	for where, s := range text {
		for _, secret := range secrets {
			if secret != "" && strings.Contains(s, secret) {
				t.Errorf("the %s shows %q: %s", where, secret, s)
			}
		}
	}
}

// CheckFailed checks a failed probe: no result, an error that wraps want and
// says msg, and none of unsaid (a secret, a body the server sent).
func CheckFailed(t testing.TB, res *protocols.Result, err, want error, msg string, unsaid ...string) {
	t.Helper()
	if res != nil || !errors.Is(err, want) || err == nil || !strings.Contains(err.Error(), msg) {
		t.Fatalf("res %v, err = %v, want %v containing %q", res, err, want, msg)
	}
	for _, s := range unsaid {
		if strings.Contains(err.Error(), s) {
			t.Errorf("the error quotes %q: %v", s, err)
		}
	}
}

// UntrustedRefused checks that q, whose api points at a TLS fake, verifies the
// API's certificate: with a pool that trusts nothing the probe fails as
// ErrMismatch naming the certificate, and the fake saw no request
// (requests() is its count).
func UntrustedRefused(t testing.TB, q protocols.Querier, api *protocols.API, requests func() int32) {
	t.Helper()
	api.RootCAs = x509.NewCertPool()
	_, _, err := QueryWithin(t, q, netip.MustParseAddrPort("203.0.113.10:443"), 2*time.Second)
	if !errors.Is(err, wire.ErrMismatch) || !strings.Contains(err.Error(), "certificate") || requests() != 0 {
		t.Fatalf("err = %v, %d requests", err, requests())
	}
}

// OptionsCase is a row of NewOptions: a module's options block and what New's
// error must say ("" for none).
type OptionsCase[T any] struct {
	Options T
	Bad     string
}

// NewOptions builds a querier from each case's options with newQuerier and
// wants an error saying Bad, or none when Bad is "".
func NewOptions[T any](t testing.TB, newQuerier func(protocols.Settings) (protocols.Querier, error), cases []OptionsCase[T]) {
	t.Helper()
	for _, c := range cases {
		_, err := newQuerier(protocols.Settings{Options: OptionsOf(c.Options)})
		if c.Bad == "" && err != nil || c.Bad != "" && (err == nil || !strings.Contains(err.Error(), c.Bad)) {
			t.Errorf("%+v: err = %v, want %q", c.Options, err, c.Bad)
		}
	}
}

// Refused wants parse to refuse each text in bad with an error saying its
// value: modules files an options block must not pass (parse is config.Parse,
// which prototest cannot import).
func Refused(t testing.TB, parse func([]byte) error, bad map[string]string) {
	t.Helper()
	for text, want := range bad {
		if err := parse([]byte(text)); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("accepted, or not saying %q: %v\n%s", want, err, text)
		}
	}
}

// HookReply is a fake's hook (it answers the request and returns true) that
// answers with status and body as JSON: an API's error or lying reply.
func HookReply(status int, body string) func(w http.ResponseWriter, r *http.Request) bool {
	return func(w http.ResponseWriter, r *http.Request) bool {
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(status)
		w.Write([]byte(body))
		return true
	}
}

// OffTarget describes, for its tests, a protocol that asks a fixed API (a
// protocols.API) instead of the target: its Protocol, and where a querier Q of
// it keeps the API. O is the protocol's Options.
type OffTarget[Q protocols.Querier, O any] struct {
	Protocol protocols.Protocol
	API      func(Q) *protocols.API
}

// Against builds a querier with options o and settings s whose API is srv,
// trusting srv's certificate.
func (a OffTarget[Q, O]) Against(t testing.TB, srv *httptest.Server, o O, s protocols.Settings) Q {
	t.Helper()
	s.Options = OptionsOf(o)
	q, err := a.Protocol.New(s)
	if err != nil {
		t.Fatal(err)
	}
	api := a.API(q.(Q))
	api.Base, api.RootCAs = srv.URL, TrustOf(srv)
	return q.(Q)
}

// Fixed checks that a querier built with o asks base over HTTPS whatever the
// target: no probe-address hook, and a certificate pool. It returns the querier.
func (a OffTarget[Q, O]) Fixed(t testing.TB, o O, base string) Q {
	t.Helper()
	q, err := a.Protocol.New(protocols.Settings{Options: OptionsOf(o)})
	if err != nil {
		t.Fatal(err)
	}
	if api := a.API(q.(Q)); api.Base != base || api.At != nil || api.RootCAs == nil {
		t.Errorf("API %+v, want base %s, no At, a RootCAs pool", api, base)
	}
	return q.(Q)
}

// Probed is Protocol whose queriers ask the API at the probed address, so
// that the contract's fake servers (a closed port, a silent one) are the API;
// hooks then prepare each querier further.
func (a OffTarget[Q, O]) Probed(hooks ...func(Q)) protocols.Protocol {
	return Hooked(a.Protocol, func(q protocols.Querier) {
		a.API(q.(Q)).At = AtProbe
		for _, h := range hooks {
			h(q.(Q))
		}
	})
}

// Hook is h as a fake's hook: it answers every request it sees.
func Hook(h http.HandlerFunc) func(w http.ResponseWriter, r *http.Request) bool {
	return func(w http.ResponseWriter, r *http.Request) bool { h(w, r); return true }
}
