package prototest

import (
	"errors"
	"net/http"
	"net/netip"
	"os"
	"path/filepath"
	"strings"
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
	tr := wire.NewTrace()
	res, err := q.Query(Context(t, 2*time.Second), protocols.At(addr), tr)
	return res, tr, err
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

// BenchReply measures decode (bytes to Result) over testdata/<file>, which
// must decode.
func BenchReply(b *testing.B, file string, decode func([]byte) (*protocols.Result, error)) {
	body := File(b, file)
	b.SetBytes(int64(len(body)))
	b.ReportAllocs()
	for b.Loop() {
		if _, err := decode(body); err != nil {
			b.Fatal(err)
		}
	}
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
