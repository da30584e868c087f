package master

import (
	"bytes"
	"errors"
	"fmt"
	"net/http"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/gameserver-exporter/gameserver_exporter/protocols/prototest"
	"github.com/gameserver-exporter/gameserver_exporter/protocols/wire"
)

const panelKey = "ptla_SECRETKEY123"

// keyFile is a file holding key and a newline.
func keyFile(t *testing.T, key string) string { return writeFile(t, key+"\n") }

// panel serves the committed pages at /api/application/servers, PANEL in them
// replaced by origin(), to requests carrying the key; other paths are
// handlers of the test's.
func panel(t *testing.T, extra map[string]http.HandlerFunc) (string, *atomic.Int32) {
	t.Helper()
	var requests atomic.Int32
	var origin string
	mux := http.NewServeMux()
	mux.HandleFunc("/api/application/servers", func(w http.ResponseWriter, r *http.Request) {
		requests.Add(1)
		if r.Header.Get("Authorization") != "Bearer "+panelKey || strings.Contains(r.URL.RawQuery, "SECRET") {
			w.WriteHeader(http.StatusUnauthorized)
			return
		}
		if r.URL.Query().Get("include") != "allocations" || r.URL.Query().Get("per_page") != "100" {
			w.WriteHeader(http.StatusBadRequest)
			return
		}
		name := "pterodactyl_page1.json"
		if r.URL.Query().Get("page") == "2" {
			name = "pterodactyl_page2.json"
		}
		w.Header().Set("Content-Type", "application/json")
		w.Write(bytes.ReplaceAll(prototest.File(t, name), []byte("PANEL"), []byte(origin)))
	})
	for p, h := range extra {
		mux.HandleFunc(p, h)
	}
	srv, _ := prototest.HTTP(t, mux, false)
	origin = srv.URL
	return srv.URL, &requests
}

// TestPterodactyl: both pages are read, each server's default allocation is a
// target (its alias when set), named after the server; the key is in no trace
// and does not print.
func TestPterodactyl(t *testing.T) {
	u, requests := panel(t, nil)
	got := listed(t, Source{Type: TypePterodactyl, URL: u + "/", KeyFile: keyFile(t, panelKey)}, "SECRET")
	var s []string
	for _, e := range got.Entries {
		s = append(s, e.Target()+"="+e.Name)
	}
	want := "192.0.2.10:25565=Survival #1 rust.example.org:28015=Rust (aliased) [2001:db8::40]:2456=Valheim"
	if strings.Join(s, " ") != want || got.Skipped != 1 || got.Capped || requests.Load() != 2 {
		t.Fatalf("%v skipped %d capped %v after %d requests, want %s", s, got.Skipped, got.Capped, requests.Load(), want)
	}
	// The cap stops before the next page.
	requests.Store(0)
	got, err := list(t, Source{Type: TypePterodactyl, URL: u, KeyFile: keyFile(t, panelKey), MaxEntries: 2}, 2*time.Second)
	if err != nil || len(got.Entries) != 2 || !got.Capped || requests.Load() != 1 {
		t.Fatalf("capped: %+v %v after %d requests", got, err, requests.Load())
	}
}

// TestPterodactylFailures: a wrong key, an endless body, lying pagination
// (a loop, another origin, a redirect), a key without allocation rights; the
// key goes to the panel only.
func TestPterodactylFailures(t *testing.T) {
	var elsewhere atomic.Int32
	other, _ := prototest.HTTP(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		elsewhere.Add(1)
		if strings.Contains(r.Header.Get("Authorization"), "SECRET") {
			t.Error("the key went to another origin")
		}
	}), false)
	pageLinking := func(next string) http.HandlerFunc {
		return func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Content-Type", "application/json")
			fmt.Fprintf(w, `{"object":"list","data":[],"meta":{"pagination":{"total":99,"total_pages":99,"links":{"next":%q}}}}`, next)
		}
	}
	var self string
	u, _ := panel(t, map[string]http.HandlerFunc{
		"/loop/api/application/servers": func(w http.ResponseWriter, r *http.Request) { pageLinking(self+r.URL.RequestURI())(w, r) },
		"/chain/api/application/servers": func(w http.ResponseWriter, r *http.Request) {
			n, _ := strconv.Atoi(r.URL.Query().Get("page"))
			pageLinking(fmt.Sprintf("%s/chain/api/application/servers?page=%d", self, n+1))(w, r)
		},
		"/away/api/application/servers": func(w http.ResponseWriter, r *http.Request) {
			pageLinking(other.URL+"/api/application/servers?page=2")(w, r)
		},
		"/redir/api/application/servers":   func(w http.ResponseWriter, r *http.Request) { http.Redirect(w, r, other.URL+"/", http.StatusFound) },
		"/endless/api/application/servers": endless(`{"object":"list","data":[{"attributes":{"name":"`, 'a'),
		"/nullres/api/application/servers": func(w http.ResponseWriter, r *http.Request) {
			w.Write([]byte(`{"object":"list","data":[{"object":"server","attributes":{"name":"x","allocation":1,"relationships":{"allocations":{"object":"null_resource","attributes":null}}}}],"meta":{"pagination":{"links":[]}}}`))
		},
		// Issue 35, M5: a link as long as a page, and pages that add up
		// past the refresh's byte budget (MaxBody, 1 MiB here).
		"/longlink/api/application/servers": func(w http.ResponseWriter, r *http.Request) {
			pageLinking(self+"/longlink/api/application/servers?page=2&pad="+strings.Repeat("a", maxPanelLink))(w, r)
		},
		"/heavy/api/application/servers": func(w http.ResponseWriter, r *http.Request) {
			n, _ := strconv.Atoi(r.URL.Query().Get("page"))
			w.Header().Set("Content-Type", "application/json")
			fmt.Fprintf(w, `{"object":"list","pad":"%s","data":[],"meta":{"pagination":{"links":{"next":"%s/heavy/api/application/servers?page=%d"}}}}`,
				strings.Repeat("a", 300<<10), self, n+1)
		},
		"/html/api/application/servers": loginPage,
		"/cut/api/application/servers": func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Content-Length", "1000")
			w.Write([]byte(`{"object":"list","data":[`))
		},
	})
	self = u
	good := keyFile(t, panelKey)
	cases := []struct {
		path, key string
		want      error
		text      string
	}{
		{"", keyFile(t, "ptla_WRONG"), wire.ErrServer, "authentication failed"},
		{"/endless", good, wire.ErrTooLarge, ""},
		{"/loop", good, wire.ErrMalformed, "links back to an earlier page"},
		{"/chain", good, wire.ErrTooLarge, "more than 30 pages"},
		{"/away", good, wire.ErrMismatch, "leaves the panel's origin"},
		{"/redir", good, wire.ErrServer, "not followed"},
		{"/nullres", good, wire.ErrServer, "read access to allocations"},
		{"/html", good, wire.ErrMalformed, "expected JSON"},
		{"/longlink", good, wire.ErrMalformed, "longer than 2048 bytes"},
		{"/heavy", good, wire.ErrTooLarge, "page 4"},
		{"/cut", good, wire.ErrTruncated, ""},
	}
	for _, c := range cases {
		t.Run(c.path, func(t *testing.T) {
			_, err := list(t, Source{Type: TypePterodactyl, URL: u + c.path, KeyFile: c.key, MaxBody: 1 << 20, MaxEntries: 200}, 3*time.Second)
			if !errors.Is(err, c.want) || !strings.Contains(err.Error(), c.text) || strings.Contains(err.Error(), "SECRET") {
				t.Fatalf("err %v, want %v %q", err, c.want, c.text)
			}
		})
	}
	if n := elsewhere.Load(); n != 0 {
		t.Fatalf("%d requests went to another origin", n)
	}
}

// TestDecodePterodactyl: PHP's empty arrays where objects are expected (no
// relationships, no links) are read as absent, not as errors; a server that
// does not decode is skipped.
func TestDecodePterodactyl(t *testing.T) {
	cases := []struct {
		page, next string
		entries    int
		want       error
	}{
		{`{"object":"list","data":[],"meta":{"pagination":{"links":[]}}}`, "", 0, nil},
		{`{"object":"list","data":[],"meta":{"pagination":{"links":{"next":"http://p/x?page=2"}}}}`, "http://p/x?page=2", 0, nil},
		{`{"object":"list","data":[{"attributes":{"name":"a","allocation":1,"relationships":[]}}],"meta":{"pagination":{"links":[]}}}`, "", 0, wire.ErrServer},
		{`{"object":"list","data":[{"attributes":{"name":"a","allocation":1,"relationships":{"allocations":{"object":"list","data":[{"attributes":{"id":1,"ip":"192.0.2.1","port":27015}}]}}}}],"meta":{}}`, "", 1, nil},
		// One bad server costs itself (issue 35, L1).
		{`{"object":"list","data":[{"attributes":{"name":"a","allocation":1,"relationships":{"allocations":"x"}}},7,` +
			`{"attributes":{"name":"b","allocation":1,"relationships":{"allocations":{"object":"list","data":[{"attributes":{"id":1,"ip":"192.0.2.1","port":27015}}]}}}}]}`, "", 1, nil},
		{`{"object":"list","data":[],"meta":{"pagination":{"links":{"next":7}}}}`, "", 0, wire.ErrMalformed},
		{`{"object":"server","attributes":{}}`, "", 0, wire.ErrMalformed},
		{`{"object":"list","data":[`, "", 0, wire.ErrTruncated},
	}
	for _, c := range cases {
		col := newCollector(10)
		next, err := decodePterodactyl(strings.NewReader(c.page), col)
		if !errors.Is(err, c.want) || err == nil && c.want != nil || next != c.next || len(col.done(nil).Entries) != c.entries {
			t.Errorf("%s: next %q, %d entries, err %v; want %q, %d, %v", c.page, next, len(col.done(nil).Entries), err, c.next, c.entries, c.want)
		}
	}
}
