package main

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
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

// What a first run meets: the server's flags in --help, a busy port that says
// how to pick another, and make run's PORT and ARGS.

// TestHelpListsServerFlags: the top-level --help lists serve's flags (the default
// command's), exporter-toolkit's among them, besides the commands.
func TestHelpListsServerFlags(t *testing.T) {
	for _, arg := range []string{"--help", "-h"} {
		out, err := exe(arg)
		if err != nil {
			t.Fatalf("%s: %v\n%s", arg, err, out)
		}
		wantAll(t, out, "Flags of serve, the default command:", "--web.listen-address", "--web.config.file",
			"web.systemd-socket", "--probe.max-concurrent", "config.check", "Commands:", "query")
	}
}

// TestBusyPort: an address another process listens on fails at once, saying
// which flag (and make variable) picks another.
func TestBusyPort(t *testing.T) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	out, err := exe("--web.listen-address=" + l.Addr().String())
	if err == nil || !strings.Contains(out, "address already in use") || !strings.Contains(out, "--web.listen-address=:PORT (make run PORT=...)") {
		t.Errorf("busy port: %v\n%s", err, out)
	}
}

// TestMakeRunPort: make run passes PORT as the listen address and ARGS as flags.
func TestMakeRunPort(t *testing.T) {
	mk, err := exec.LookPath("make")
	if err != nil {
		t.Skip("make is not installed: skipping")
	}
	out, err := exec.Command(mk, "--no-print-directory", "-n", "run", "PORT=10116", "ARGS=--log.level=debug --config.file=examples/modules.yml").CombinedOutput()
	if err != nil {
		t.Fatalf("make -n run: %v\n%s", err, out)
	}
	if !strings.Contains(string(out), "./gameserver_exporter --web.listen-address=:10116 --log.level=debug --config.file=examples/modules.yml") {
		t.Errorf("make -n run PORT=10116 ARGS=...:\n%s", out)
	}
	out, _ = exec.Command(mk, "--no-print-directory", "-n", "run").CombinedOutput() // no "Entering directory" under make test
	if !strings.Contains(string(out), "./gameserver_exporter \n") && !strings.HasSuffix(strings.TrimRight(string(out), " \n"), "./gameserver_exporter") {
		t.Errorf("make -n run without PORT must run the binary without flags:\n%s", out)
	}
}
