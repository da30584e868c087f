package e2e

import (
	"encoding/json"
	"fmt"
	"io"
	"maps"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"slices"
	"strconv"
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

// TestRealMinetestList: a real minetest server announces itself to a loopback
// server list (fakeServerList), the exporter's modules file points the source
// minetest there (overriding the built-in one), and the catalog's minetest and
// luanti modules (protocol list) read the server's announce from it: its
// configured name, slots and password flag, no players, its game and version.
func TestRealMinetestList(t *testing.T) {
	endToEnd(t, "a real game server")
	list := newFakeServerList(t)
	p, port := startMinetest(t, list.url)
	want := debVersion(t, "minetest-server")

	// The server announces itself once its world is loaded ("start"), then every
	// five minutes ("update").
	testenv.WaitFor(t, 90*time.Second, "the minetest server's announce", func() (bool, string) {
		p.FailIfExited(t)
		return list.has(port), "list " + list.served()
	})

	modules := filepath.Join(t.TempDir(), "modules.yml")
	prototest.WriteFile(t, modules, fmt.Sprintf(`discovery:
  minetest:
    preset: minetest
    url: %s/list
    refresh: 10s
`, list.url))
	ex := exporterClient{startExporter(t, "--config.file="+modules)}
	for _, module := range []string{"minetest", "luanti"} {
		r := ex.waitProbe(t, p, module, port, nil)
		r.checkInfo(t, map[string]string{"protocol": "list", "name": minetestName, "game": minetestGame, "version": want})
		// disallow_empty_password: the list's password flag.
		r.wantAll(t, map[string]float64{"probe_success": 1, "gameserver_players": 0, "gameserver_players_max": minetestUsers, "gameserver_password_required": 1})
		if _, ok := r.Families["probe_failure_info"]; ok {
			t.Errorf("%s: probe_failure_info on a successful probe:\n%s", module, r.Body)
		}
	}
}

// startMinetest starts minetestserver with a new minetest_game world, bound to
// 127.0.0.1 (IPv4 only), announcing to the list at listURL (it posts to
// serverlist_url + "/announce") and nowhere else, with no proxy.
func startMinetest(t *testing.T, listURL string) (*testenv.Proc, int) {
	port := testenv.ServerPort(t, 1)
	l := launch{pkgs: "minetest-server", env: []string{"http_proxy=", "https_proxy=", "HTTP_PROXY=", "HTTPS_PROXY=", "ALL_PROXY=", "all_proxy="},
		files: map[string]string{"minetest.conf": conf(t, "minetest.conf", map[string]any{
			"Name": minetestName, "List": listURL, "Port": port, "Users": minetestUsers, "Game": minetestGame})}}
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
	url     string
	mu      sync.Mutex
	servers map[string]map[string]any // by address:port
}

func newFakeServerList(t *testing.T) *fakeServerList {
	t.Helper()
	l := &fakeServerList{servers: map[string]map[string]any{}}
	mux := http.NewServeMux()
	mux.HandleFunc("POST /announce", l.announce)
	mux.HandleFunc("GET /list", func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		io.WriteString(w, l.served())
	})
	srv := httptest.NewServer(mux) // 127.0.0.1
	t.Cleanup(srv.Close)
	l.url = srv.URL
	return l
}

func (l *fakeServerList) announce(w http.ResponseWriter, r *http.Request) {
	var s map[string]any
	if err := json.Unmarshal([]byte(r.FormValue("json")), &s); err != nil {
		http.Error(w, "json: "+err.Error(), http.StatusBadRequest)
		return
	}
	if a, _ := s["address"].(string); a == "" {
		s["address"], _, _ = net.SplitHostPort(r.RemoteAddr)
	}
	port, _ := s["port"].(float64)
	key := net.JoinHostPort(s["address"].(string), strconv.Itoa(int(port)))
	action, _ := s["action"].(string)
	delete(s, "action")
	l.mu.Lock()
	defer l.mu.Unlock()
	switch action {
	case "start":
		l.servers[key] = s
	case "update":
		if old := l.servers[key]; old != nil {
			maps.Copy(old, s)
		}
	case "delete":
		delete(l.servers, key)
	}
}

// served is the list as GET /list serves it.
func (l *fakeServerList) served() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	b, _ := json.Marshal(map[string]any{"list": slices.AppendSeq([]map[string]any{}, maps.Values(l.servers))})
	return string(b)
}

// has reports whether the list holds a server on 127.0.0.1:port.
func (l *fakeServerList) has(port int) bool {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.servers[loopback(port).String()] != nil
}
