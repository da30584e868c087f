package e2e

import (
	"encoding/json"
	"fmt"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/gameserver-exporter/gameserver_exporter/internal/testenv"
	"github.com/gameserver-exporter/gameserver_exporter/protocols/prototest"
)

// Luanti / Minetest 5.6 (Debian package minetest-server, game minetest_game).
const (
	minetestName  = "Exporter Test Luanti"
	minetestUsers = 11
	minetestGame  = "minetest" // minetest_game's id
)

// TestRealMinetestList runs a real minetest server that announces itself to a
// loopback server list (fakeServerList: it stores what the server posts and
// serves it back as servers.minetest.net serves its list), and an exporter whose
// modules file defines the source minetest at that list, overriding the
// built-in one. The catalog's minetest and luanti modules (protocol list) then
// read the real server's announce from the list: its configured name, slots and
// password flag, no players, its game and the package's version. Nothing
// reaches the public list: the server's serverlist_url and the source's url are
// the loopback fake.
func TestRealMinetestList(t *testing.T) {
	endToEnd(t, "a real game server")
	list := newFakeServerList(t)
	p, port := startMinetest(t, list.url)
	want := debVersion(t, "minetest-server")

	// The server announces itself once its world is loaded ("start"), then every
	// five minutes ("update").
	testenv.WaitFor(t, 90*time.Second, "the minetest server's announce", func() (bool, string) {
		p.FailIfExited(t)
		return list.has(port), list.state()
	})

	modules := filepath.Join(t.TempDir(), "modules.yml")
	prototest.WriteFile(t, modules, fmt.Sprintf(`discovery:
  minetest:
    preset: minetest
    url: %s/list
    refresh: 10s
`, list.url))
	ex := exporterClient{
		base: startExporter(t, "--config.file="+modules).Base,
		c:    &http.Client{Timeout: 10 * time.Second},
	}
	for _, module := range []string{"minetest", "luanti"} {
		r := ex.waitProbe(t, p, module, port, nil)
		t.Logf("%s: %v", module, r.info())
		r.checkInfo(t, map[string]string{"protocol": "list", "name": minetestName, "game": minetestGame, "version": want})
		r.want(t, "probe_success", 1)
		r.want(t, "gameserver_players", 0)
		r.want(t, "gameserver_players_max", minetestUsers)
		// disallow_empty_password: the list's password flag.
		r.want(t, "gameserver_password_required", 1)
		if _, ok := r.fams["probe_failure_info"]; ok {
			t.Errorf("%s: probe_failure_info on a successful probe:\n%s", module, r.body)
		}
	}
	t.Logf("the list served: %s", list.served())
	// Another port of the same address is not listed: the lookup matches the
	// port the server announced, not just its address.
	r, err := ex.probe("minetest", port+1)
	if err != nil {
		t.Fatal(err)
	}
	r.want(t, "probe_success", 0)
	if reason := r.failure(); reason != "not_listed" {
		t.Errorf("unlisted port: failure reason %q, want not_listed:\n%s", reason, r.body)
	}
	if n := list.fetches(); n == 0 {
		t.Error("the exporter never fetched the loopback list")
	}
}

// startMinetest starts minetestserver with a new minetest_game world, bound to
// 127.0.0.1 (IPv4 only), announcing to the list at listURL (it posts to
// serverlist_url + "/announce") and nowhere else, with no proxy.
func startMinetest(t *testing.T, listURL string) (*testenv.Proc, int) {
	port := serverPort(t, 1)
	l := launch{pkgs: "minetest-server", env: []string{"http_proxy=", "https_proxy=", "HTTP_PROXY=", "HTTPS_PROXY=", "ALL_PROXY=", "all_proxy="},
		files: map[string]string{"minetest.conf": fmt.Sprintf(`server_name = %s
server_description = a real server announcing to a loopback list
server_announce = true
serverlist_url = %s
bind_address = 127.0.0.1
ipv6_server = false
port = %d
max_users = %d
disallow_empty_password = true
default_game = %s
`, minetestName, listURL, port, minetestUsers, minetestGame)}}
	l.install(t)
	if _, err := os.Stat("/usr/share/games/minetest/games/minetest_game"); err != nil {
		t.Skipf("minetest_game missing (Debian package minetest-game): %v", err)
	}
	return l.start(t, "/usr/games/minetestserver", "--config", "$DIR/minetest.conf", "--world", "$DIR/world",
		"--gameid", minetestGame, "--port", strconv.Itoa(port)), port
}

// fakeServerList stands in for servers.minetest.net on loopback: servers post
// their announce to /announce (a form field json: action start, update or
// delete, and the server's settings), and GET /list serves the servers it holds
// as {"list": [...]}, each the object the server posted, with the address the
// post came from where the server named none (as the real list does).
type fakeServerList struct {
	url string

	mu      sync.Mutex
	servers map[string]map[string]any // by address:port
	posts   []string                  // actions received, for the failure message
	gets    int
}

func newFakeServerList(t *testing.T) *fakeServerList {
	t.Helper()
	l := &fakeServerList{servers: map[string]map[string]any{}}
	mux := http.NewServeMux()
	mux.HandleFunc("POST /announce", l.announce)
	mux.HandleFunc("GET /list", l.list)
	srv := httptest.NewServer(mux) // 127.0.0.1
	t.Cleanup(srv.Close)
	l.url = srv.URL
	return l
}

func (l *fakeServerList) announce(w http.ResponseWriter, r *http.Request) {
	r.Body = http.MaxBytesReader(w, r.Body, 1<<20)
	if err := r.ParseMultipartForm(1 << 20); err != nil && err != http.ErrNotMultipart {
		http.Error(w, err.Error(), http.StatusBadRequest)
		return
	}
	var s map[string]any
	if err := json.Unmarshal([]byte(r.FormValue("json")), &s); err != nil {
		http.Error(w, "json: "+err.Error(), http.StatusBadRequest)
		return
	}
	ip, _, _ := net.SplitHostPort(r.RemoteAddr)
	if a, _ := s["address"].(string); a == "" {
		s["address"] = ip
	}
	port, ok := s["port"].(float64)
	if !ok {
		http.Error(w, "no port", http.StatusBadRequest)
		return
	}
	key := net.JoinHostPort(s["address"].(string), strconv.Itoa(int(port)))
	action, _ := s["action"].(string)
	delete(s, "action")
	l.mu.Lock()
	defer l.mu.Unlock()
	l.posts = append(l.posts, action+" "+key)
	switch action {
	case "start":
		l.servers[key] = s
	case "update":
		if old := l.servers[key]; old != nil {
			for k, v := range s {
				old[k] = v
			}
		}
	case "delete":
		delete(l.servers, key)
	default:
		http.Error(w, "unknown action", http.StatusBadRequest)
	}
}

func (l *fakeServerList) list(w http.ResponseWriter, _ *http.Request) {
	l.mu.Lock()
	out := struct {
		List []map[string]any `json:"list"`
	}{List: []map[string]any{}}
	for _, s := range l.servers {
		out.List = append(out.List, s)
	}
	l.gets++
	b, err := json.Marshal(out)
	l.mu.Unlock()
	if err != nil {
		http.Error(w, err.Error(), http.StatusInternalServerError)
		return
	}
	w.Header().Set("Content-Type", "application/json")
	w.Write(b)
}

// served is the list as GET /list serves it.
func (l *fakeServerList) served() string {
	rec := httptest.NewRecorder()
	l.list(rec, nil)
	return rec.Body.String()
}

// has reports whether the list holds a server on 127.0.0.1:port.
func (l *fakeServerList) has(port int) bool {
	l.mu.Lock()
	defer l.mu.Unlock()
	_, ok := l.servers[loopback(port).String()]
	return ok
}

func (l *fakeServerList) fetches() int {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.gets
}

func (l *fakeServerList) state() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return fmt.Sprintf("posts %s", strings.Join(l.posts, ", "))
}
