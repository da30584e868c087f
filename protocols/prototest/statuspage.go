package prototest

import (
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/netip"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/gameserver-exporter/gameserver_exporter/protocols"
	"github.com/gameserver-exporter/gameserver_exporter/protocols/wire"
)

// The suite of the HTTP status-page protocols (a game server's own web page or
// API answering one GET with JSON or XML): their fake server, one traced probe,
// the failures every such protocol must tell apart, and the fuzz and benchmark
// bodies over their testdata replies.

// StatusPages starts a plain HTTP fake on loopback that answers a GET of each
// path in files with testdata/<file> (XML when the name ends in .xml, JSON
// otherwise), and 404 to any other path or method.
func StatusPages(t testing.TB, files map[string]string) netip.AddrPort {
	t.Helper()
	_, addr := HTTP(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		name, ok := files[r.URL.Path]
		if !ok || r.Method != http.MethodGet {
			http.NotFound(w, r)
			return
		}
		ctype := "application/json"
		if strings.HasSuffix(name, ".xml") {
			ctype = "text/xml"
		}
		w.Header().Set("Content-Type", ctype)
		w.Write(File(t, name))
	}), false)
	return addr
}

// StatusReply starts a plain HTTP fake on loopback that answers every request
// with status, content type ctype and body.
func StatusReply(t testing.TB, status int, ctype, body string) netip.AddrPort {
	t.Helper()
	_, addr := HTTP(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", ctype)
		w.WriteHeader(status)
		w.Write([]byte(body))
	}), false)
	return addr
}

// QueryOnce builds a querier with newQuerier(s) and runs one traced probe of
// addr with a 2 s deadline.
func QueryOnce(t testing.TB, newQuerier func(protocols.Settings) (protocols.Querier, error), addr netip.AddrPort, s protocols.Settings) (*protocols.Result, *wire.Trace, error) {
	t.Helper()
	q, err := newQuerier(s)
	if err != nil {
		t.Fatal(err)
	}
	return QueryWithin(t, q, addr, 2*time.Second)
}

// StatusPage describes a protocol whose query is one GET of a status page
// answered with JSON, for StatusPageSuite.
type StatusPage struct {
	Contract           // Protocol, what it declares, the Settings of every case
	Path        string // where the page is
	Good        string // testdata reply of a live server
	WantName    string // the server name Good says
	WantPlayers int    // the players Good lists
	// Malformed are testdata replies the decoder must refuse (ErrMalformed).
	Malformed []string
}

// StatusPageSuite runs what each such protocol's tests repeated: Good at Path
// decodes in one "info" phase; a server without the page is ErrServer; the
// PageFailures and each Malformed reply fail in one phase; then the
// QuerierContract.
func StatusPageSuite(t *testing.T, p StatusPage) {
	t.Helper()
	t.Run("good", func(t *testing.T) {
		t.Parallel()
		res, tr, err := QueryOnce(t, p.Protocol.New, StatusPages(t, map[string]string{p.Path: p.Good}), p.Settings)
		if err != nil || res.Name != p.WantName || len(res.PlayerList) != p.WantPlayers {
			t.Fatalf("%v, %+v, want %q with %d players", err, res, p.WantName, p.WantPlayers)
		}
		if PhaseNames(tr) != "info" || tr.Phases[0].Err != nil {
			t.Errorf("phases %+v", tr.Phases)
		}
	})
	t.Run("failures", func(t *testing.T) {
		t.Parallel()
		cases := []PageFailure{{"no status page", StatusPages(t, nil), wire.ErrServer}}
		for _, file := range p.Malformed {
			cases = append(cases, PageFailure{file, StatusPages(t, map[string]string{p.Path: file}), wire.ErrMalformed})
		}
		PageFailures(t, p.Protocol.New, p.Settings, cases...)
	})
	t.Run("contract", func(t *testing.T) { QuerierContract(t, p.Contract) })
}

// ReplyDecoder decodes a reply into the Result it leads to.
type ReplyDecoder func([]byte) (*protocols.Result, error)

// Err is d as DecodeBench takes it: the error only.
func (d ReplyDecoder) Err(b []byte) error { _, err := d(b); return err }

// Decoded joins a protocol's decoder and its result into a ReplyDecoder, for
// FuzzReplies, CheckReplies and DecodeBench.
func Decoded[S any](decode func([]byte) (S, error), result func(S) *protocols.Result) ReplyDecoder {
	return func(b []byte) (*protocols.Result, error) {
		s, err := decode(b)
		if err != nil {
			return nil, err
		}
		return result(s), nil
	}
}

// PageFailure is a case of PageFailures: a fake at Addr, the sentinel the probe
// must fail with.
type PageFailure struct {
	Name string
	Addr netip.AddrPort
	Want error
}

// PageFailures probes each case in parallel and wants Want, in one failed
// phase. Two cases every status page shares run first: a server error page is
// ErrServer, an HTML page where the status should be is ErrMalformed.
func PageFailures(t *testing.T, newQuerier func(protocols.Settings) (protocols.Querier, error), s protocols.Settings, cases ...PageFailure) {
	t.Helper()
	cases = append([]PageFailure{
		{"server error", StatusReply(t, http.StatusInternalServerError, "text/html", "<html>busy</html>"), wire.ErrServer},
		{"html page", StatusReply(t, http.StatusOK, "text/html", "<html>busy</html>"), wire.ErrMalformed},
	}, cases...)
	for _, tc := range cases {
		t.Run(tc.Name, func(t *testing.T) {
			t.Parallel()
			_, tr, err := QueryOnce(t, newQuerier, tc.Addr, s)
			if !errors.Is(err, tc.Want) {
				t.Errorf("err = %v, want %v", err, tc.Want)
			}
			if len(tr.Phases) != 1 || tr.Phases[0].Err == nil {
				t.Errorf("phases %+v, want one failed", tr.Phases)
			}
		})
	}
}

// FuzzReplies seeds f with the testdata files matching glob and fuzzes decode
// (bytes to the Result it leads to): a refused input wraps ErrMalformed, a
// decoded one lists at most maxPlayers players (none checked when 0), has no
// negative count and holds valid UTF-8.
func FuzzReplies(f *testing.F, glob string, maxPlayers int, decode func([]byte) (*protocols.Result, error)) {
	SeedFiles(f, glob)
	f.Fuzz(func(t *testing.T, b []byte) {
		res, err := decode(b)
		if err != nil {
			if !errors.Is(err, wire.ErrMalformed) {
				t.Fatalf("error is not malformed: %v", err)
			}
			return
		}
		if maxPlayers > 0 && len(res.PlayerList) > maxPlayers {
			t.Fatalf("%d players past the cap", len(res.PlayerList))
		}
		if res.Players.Value < 0 || res.MaxPlayers.Value < 0 || res.Bots.Value < 0 {
			t.Fatalf("negative counts %+v", res)
		}
		CheckUTF8(t, res)
	})
}

// SeedFiles adds each testdata file matching glob to f's seed corpus (which
// runs as a normal test), failing when none matches.
func SeedFiles(f *testing.F, glob string) {
	f.Helper()
	files, _ := filepath.Glob(filepath.Join("testdata", glob))
	if len(files) == 0 {
		f.Fatalf("no testdata/%s to seed from", glob)
	}
	for _, p := range files {
		b, err := os.ReadFile(p)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(b)
	}
}

// ReplyCase is a row of CheckReplies: a testdata reply, and the error its
// decoding wraps, or the summary of its Result.
type ReplyCase struct {
	File string
	Err  error
	Want string
}

// CheckReplies decodes each case's file, in a subtest named for it, and wants
// Err, or no error and a Result that summary prints as Want.
func CheckReplies(t *testing.T, decode func([]byte) (*protocols.Result, error), summary func(*protocols.Result) string, cases []ReplyCase) {
	t.Helper()
	for _, c := range cases {
		t.Run(c.File, func(t *testing.T) {
			res, err := decode(File(t, c.File))
			if !errors.Is(err, c.Err) || (err == nil) != (c.Err == nil) {
				t.Fatalf("err = %v, want %v", err, c.Err)
			}
			if err == nil && summary(res) != c.Want {
				t.Errorf("result\n%s\nwant\n%s", summary(res), c.Want)
			}
		})
	}
}

// PlayerNames is the names of res's player list, as fmt prints a []string.
func PlayerNames(res *protocols.Result) string { return fmt.Sprint(ListNames(res)) }

// Unquoted is in the bodies HTTPHazards serve: an error must not quote it.
const Unquoted = "secret-page-body"

// HTTPHazard is an HTTP answer every HTTP querier refuses alike: the handler
// that answers so, the deadline to probe it with, the sentinel and text of the
// error.
type HTTPHazard struct {
	Name     string
	Handler  http.HandlerFunc
	Deadline time.Duration
	Want     error
	Msg      string
}

// HTTPHazards are the hazards for a querier whose bodies are capped at maxBody:
// an HTML page where JSON should be, a body past the cap, a redirect (to a
// server that fails the test if it is asked), a server that never answers.
func HTTPHazards(t testing.TB, maxBody int) []HTTPHazard {
	var hit atomic.Bool
	elsewhere, _ := HTTP(t, http.HandlerFunc(func(http.ResponseWriter, *http.Request) { hit.Store(true) }), false)
	t.Cleanup(func() {
		if hit.Load() {
			t.Error("the redirect was followed")
		}
	})
	return []HTTPHazard{
		{"html_page", func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Content-Type", "text/html")
			w.Write([]byte("<html>" + Unquoted + "</html>"))
		}, 2 * time.Second, wire.ErrMalformed, "text/html"},
		{"body_over_cap", func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Content-Type", "application/json")
			w.Write([]byte(`{"name":"` + strings.Repeat("x", maxBody) + `"}`))
		}, 2 * time.Second, wire.ErrTooLarge, "longer than"},
		{"redirect", func(w http.ResponseWriter, r *http.Request) {
			http.Redirect(w, r, elsewhere.URL+r.URL.Path, http.StatusTemporaryRedirect)
		}, 2 * time.Second, wire.ErrServer, "not followed"},
		// The body is read first: the server notices the client leave (and
		// cancels r.Context) only once the request body is consumed.
		{"never_answers", func(w http.ResponseWriter, r *http.Request) { io.Copy(io.Discard, r.Body); <-r.Context().Done() },
			300 * time.Millisecond, wire.ErrTimeout, "deadline"},
	}
}
