package main

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/netip"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/gameserver-exporter/gameserver_exporter/internal/testenv"
	"github.com/gameserver-exporter/gameserver_exporter/protocols/prototest"
)

var binary string // the exporter, built once by TestMain

func TestMain(m *testing.M) {
	var err error
	if binary, err = testenv.BuildExporter("."); err != nil {
		fmt.Fprintln(os.Stderr, "building the exporter:", err)
		os.Exit(1)
	}
	code := m.Run()
	testenv.RemoveBuilt()
	os.Exit(code)
}

func startExporter(t *testing.T, args ...string) *testenv.Exporter {
	t.Helper()
	return testenv.StartExporter(t, binary, args...)
}

// exe runs the exporter binary with args and returns its combined output.
func exe(args ...string) (string, error) {
	return testenv.RunTool(20*time.Second, "", append([]string{binary}, args...)...)
}

// writeFile writes a test's file, failing the test on an error.
func writeFile(t *testing.T, path, content string) string {
	t.Helper()
	prototest.WriteFile(t, path, content)
	return path
}

func wantAll(t *testing.T, body string, wants ...string) {
	t.Helper()
	for _, w := range wants {
		if !strings.Contains(body, w) {
			t.Errorf("missing %q in:\n%s", w, body)
		}
	}
}

func TestEndpoints(t *testing.T) {
	e := startExporter(t)
	for _, c := range []struct {
		path  string
		code  int
		wants []string
	}{
		{"/metrics", 200, []string{"gameserver_exporter_build_info", "go_goroutines", "process_resident_memory_bytes",
			"gameserver_exporter_config_last_reload_successful 1"}},
		{"/config", 200, []string{"modules:", "a2s:", "protocol: a2s", "quake3:", "hytale:"}},
		{"/modules", 200, []string{"MODULE", "valheim", "2456", "[1]", "Valheim", "mta", "[123]"}},
		{"/", 200, []string{"gameserver_exporter", `name="target"`, `id="module"`, "No probes yet"}},
		{"/-/ready", 200, nil},
		// The nearest name and where the rest are, not all of them.
		{"/probe?module=Quake3&target=127.0.0.1", 400, []string{`did you mean "quake3"?`, "/modules"}},
		{"/-/reload", http.StatusMethodNotAllowed, nil},
	} {
		code, body := e.Get(t, c.path)
		if code != c.code {
			t.Errorf("GET %s: %d, want %d", c.path, code, c.code)
		}
		wantAll(t, body, c.wants...)
		if c.code == 400 && strings.Contains(body, "hytale") {
			t.Errorf("unknown module: every name listed: %s", body)
		}
	}
}

// TestProbeEachProtocol scrapes /probe of the real binary for a fake server of each
// of the first three protocols, built from their specs.
func TestProbeEachProtocol(t *testing.T) {
	hytale := prototest.TCP(t, func(c net.Conn) {
		bufio.NewReader(c).ReadString('\n')
		c.Write([]byte("OK 7 50\r\n"))
	})
	quake3 := prototest.UDP(t, func(req []byte) [][]byte {
		// The ping-0 line has the querier ask getinfo for the bot count.
		if c, ok := strings.CutPrefix(string(req), "\xff\xff\xff\xffgetinfo "); ok {
			return [][]byte{[]byte("\xff\xff\xff\xffinfoResponse\n\\challenge\\" + strings.TrimSpace(c) + "\\clients\\2\\g_humanplayers\\1")}
		}
		if !strings.HasPrefix(string(req), "\xff\xff\xff\xffgetstatus") {
			return nil
		}
		// echo the challenge token, as ioq3 does
		challenge := strings.TrimSpace(strings.TrimPrefix(strings.TrimRight(string(req[4:]), "\x00\n"), "getstatus"))
		return [][]byte{[]byte("\xff\xff\xff\xffstatusResponse\n\\challenge\\" + challenge +
			"\\sv_hostname\\^1Test ^7Arena\\mapname\\q3dm17\\sv_maxclients\\12\\g_needpass\\0\\gamename\\baseq3\\version\\ioq3 1.36\n" +
			"5 0 \"^2Bot\"\n12 48 \"Player\"\n")}
	})
	e := startExporter(t)
	for _, tc := range []struct {
		module string
		target netip.AddrPort
		want   []string
	}{
		{"hytale", hytale, []string{"probe_success 1", "gameserver_players 7", "gameserver_players_max 50"}},
		{"quake3", quake3, []string{"probe_success 1", "gameserver_players 1", "gameserver_bots 1", "gameserver_players_max 12",
			`name="Test Arena"`, `map="q3dm17"`, "gameserver_password_required 0"}},
		{"a2s", prototest.A2SServer(t), []string{"probe_success 1", "gameserver_players_max 16", `name="A2S Test"`,
			`map="de_dust2"`, `gameserver_query_duration_seconds{phase="challenge"}`}},
	} {
		t.Run(tc.module, func(t *testing.T) {
			code, body := e.Get(t, "/probe?module="+tc.module+"&target="+tc.target.String())
			if code != 200 {
				t.Fatalf("status %d: %s", code, body)
			}
			wantAll(t, body, tc.want...)
			_, dbg := e.Get(t, "/probe?debug=true&module="+tc.module+"&target="+tc.target.String())
			wantAll(t, dbg, "Logs for the probe:", "Packets:", "#1 sent", "received")
		})
	}
	// A silent server fails as a timeout within the scrape budget, HTTP 200.
	req, _ := http.NewRequest("GET", e.Base+"/probe?module=a2s&target="+prototest.Silent(t).String(), nil)
	req.Header.Set("X-Prometheus-Scrape-Timeout-Seconds", "1")
	lag := prototest.SchedulingLag(t)
	start := time.Now()
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	b, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if el := time.Since(start); el > 1500*time.Millisecond+lag() {
		t.Errorf("silent probe took %s with a 0.5s budget", el)
	}
	if resp.StatusCode != 200 {
		t.Errorf("silent probe status %d", resp.StatusCode)
	}
	wantAll(t, string(b), "probe_success 0", `probe_failure_info{reason="timeout"} 1`)
	_, landing := e.Get(t, "/")
	wantAll(t, landing, `<span class="reason">timeout</span>`, "/logs?id=", `<tr class="down">`)
}

func TestReload(t *testing.T) {
	path := writeFile(t, filepath.Join(t.TempDir(), "modules.yml"), "modules:\n  mine:\n    protocol: quake3\n")
	e := startExporter(t, "--config.file="+path)
	if _, body := e.Get(t, "/config"); !strings.Contains(body, "mine:") {
		t.Fatalf("config lacks module mine:\n%s", body)
	}
	writeFile(t, path, "modules:\n  theirs:\n    protocol: hytale\n")
	resp, err := http.Post(e.Base+"/-/reload", "", nil)
	if err != nil || resp.StatusCode != 200 {
		t.Fatalf("POST /-/reload: %v %v", resp, err)
	}
	if _, body := e.Get(t, "/config"); !strings.Contains(body, "theirs:") || strings.Contains(body, "mine:") {
		t.Fatalf("reload did not take:\n%s", body)
	}
	// A bad file keeps the old config and says so on /metrics.
	writeFile(t, path, "modules:\n  bad:\n    protocol: quake3\n    bogus: 1\n")
	e.Cmd.Process.Signal(syscall.SIGHUP)
	testenv.WaitEvery(t, 20*time.Millisecond, 5*time.Second, "SIGHUP with a bad file to set config_last_reload_successful 0", func() (bool, string) {
		_, m := e.Get(t, "/metrics")
		return strings.Contains(m, "gameserver_exporter_config_last_reload_successful 0"), ""
	})
	if _, body := e.Get(t, "/config"); !strings.Contains(body, "theirs:") {
		t.Fatalf("a bad reload must keep the old config:\n%s", body)
	}
}

func TestConfigCheck(t *testing.T) {
	dir := t.TempDir()
	for _, c := range []struct {
		file      string // "" none
		ok        bool
		wants     []string
		errorsOut int // how many "Error loading config" lines
	}{
		{"modules:\n  m:\n    protocol: a2s\n", true, nil, 0},
		// The file, line, column and key.
		{"modules:\n  m:\n    protocol: a2s\n    nope: 1\n", false, []string{"bad.yml:4:5", `unknown field \"nope\"`}, 1},
		// Every error, one a line.
		{"modules:\n  m:\n    protocol: a2s\n    nope: 1\n  bad name!:\n    protocol: a2s\n  n:\n    protocol: quake9\n", false,
			[]string{"bad.yml:4:5", "bad.yml:5:3", "bad.yml:8:5"}, 3},
		// A module that drops a built-in's ports is warned of.
		{"modules:\n  valheim:\n    protocol: a2s\n", true, []string{"replaces the built-in module"}, 0},
		{"", true, []string{"built-in modules"}, 0},
	} {
		args := []string{"--config.check"}
		if c.file != "" {
			args = append(args, "--config.file="+writeFile(t, filepath.Join(dir, "bad.yml"), c.file))
		}
		out, err := exe(args...)
		if (err == nil) != c.ok || strings.Count(out, "Error loading config") != c.errorsOut {
			t.Errorf("%q: %v, want ok %v and %d errors:\n%s", c.file, err, c.ok, c.errorsOut, out)
		}
		wantAll(t, out, c.wants...)
	}
	if out, err := exe("--version"); err != nil || !strings.Contains(out, "gameserver_exporter") {
		t.Errorf("--version: %v %s", err, out)
	}
}

func TestQueryCommand(t *testing.T) {
	hytale := prototest.TCP(t, func(c net.Conn) {
		bufio.NewReader(c).ReadString('\n')
		c.Write([]byte("OK 4 32\n"))
	}).String()
	out, err := exe("query", "--module", "hytale", hytale)
	if err != nil {
		t.Fatalf("query: %v %s", err, out)
	}
	wantAll(t, out, "up, answered in", "players:  4/32")
	stdout, err := exec.Command(binary, "query", "-m", "hytale", "--json", hytale).Output()
	var rep struct {
		Success    bool
		Players    *int64
		MaxPlayers *int64 `json:"max_players"`
	}
	if err == nil {
		err = json.Unmarshal(stdout, &rep)
	}
	if err != nil || !rep.Success || rep.Players == nil || *rep.Players != 4 || *rep.MaxPlayers != 32 {
		t.Errorf("query --json: %v %s", err, stdout)
	}
	out, _ = exe("query", "-m", "hytale", "--debug", hytale)
	wantAll(t, out, "Packets:", "51 55 45 52 59 0a")
	// A server that is down: exit code 1 and the reason.
	out, err = exe("query", "-m", "a2s", "--timeout", "0.5", prototest.Silent(t).String())
	if ee, ok := err.(*exec.ExitError); !ok || ee.ExitCode() != 1 {
		t.Errorf("a down server must exit 1: %v %s", err, out)
	}
	wantAll(t, out, "DOWN", "timeout")
}

// TestReloadRefusesBody: a reload never waits on a request body, and a client that
// sends one (or drips it) is answered and disconnected at once, without a reload.
func TestReloadRefusesBody(t *testing.T) {
	e := startExporter(t)
	conn, err := net.Dial("tcp", e.Addr)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	fmt.Fprintf(conn, "POST /-/reload HTTP/1.1\r\nHost: x\r\nContent-Length: 100000\r\n\r\nx")
	conn.SetReadDeadline(time.Now().Add(5 * time.Second))
	b, err := io.ReadAll(conn) // ends when the server closes the connection
	if err != nil {
		t.Fatalf("the server kept the connection open waiting for the body: %v (read %q)", err, b)
	}
	wantAll(t, string(b), "413", "takes no request body")
	_, m := e.Get(t, "/metrics")
	wantAll(t, m, "gameserver_exporter_config_last_reload_successful 1")
}

// TestCommandFlags: the server's flags belong to serve, the default command: they
// work without naming it, and `query --help` lists only the query's own.
func TestCommandFlags(t *testing.T) {
	out, err := exe("query", "--help")
	if err != nil {
		t.Fatalf("query --help: %v %s", err, out)
	}
	wantAll(t, out, "--timeout", "-f, --file=FILE", "-m, --module", "[<target>...]", "--config.file")
	for _, serveOnly := range []string{"--web.listen-address", "--probe.max-concurrent", "--config.check", "--history.limit"} {
		if strings.Contains(out, serveOnly) {
			t.Errorf("query --help lists the server's %s:\n%s", serveOnly, out)
		}
	}
	out, _ = exe("serve", "--help")
	wantAll(t, out, "--web.listen-address", "--probe.max-concurrent")
	if out, err := exe("--probe.max-concurrent=5", "--config.check"); err != nil {
		t.Errorf("serve flags without serve: %v %s", err, out)
	}
	if out, err := exe("query", "--web.listen-address=:1", "127.0.0.1:1"); err == nil || !strings.Contains(out, "unknown long flag") {
		t.Errorf("query must refuse the server's flags: %v %s", err, out)
	}
	// The exporter started the usual way, flags and no command.
	e := startExporter(t, "--probe.min-interval=0s", "--timeout-offset=0.2")
	if code, body := e.Get(t, "/-/healthy"); code != 200 {
		t.Errorf("/-/healthy: %d %s", code, body)
	}
	if out, err := exe("query", "--timeout", "2s", prototest.A2SServer(t).String()); err != nil || !strings.Contains(out, "(auto: a2s on port") {
		t.Errorf("query --timeout 2s: %v %s", err, out)
	}
}
