package main

import (
	"bufio"
	"context"
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

	"github.com/gameserver-exporter/gameserver_exporter/protocols/prototest"
)

// exporter is the real binary, started on a free loopback port.
type exporter struct {
	base string
	cmd  *exec.Cmd
}

var binary string

func TestMain(m *testing.M) {
	dir, err := os.MkdirTemp("", "gse-bin")
	if err != nil {
		panic(err)
	}
	binary = filepath.Join(dir, "gameserver_exporter")
	if out, err := exec.Command("go", "build", "-o", binary, ".").CombinedOutput(); err != nil {
		fmt.Fprintf(os.Stderr, "building the exporter: %v\n%s", err, out)
		os.Exit(1)
	}
	code := m.Run()
	os.RemoveAll(dir)
	os.Exit(code)
}

func freePort(t *testing.T) string {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	return l.Addr().String()
}

func startExporter(t *testing.T, args ...string) *exporter {
	t.Helper()
	return startBinary(t, binary, args...)
}

func startBinary(t *testing.T, bin string, args ...string) *exporter {
	t.Helper()
	addr := freePort(t)
	cmd := exec.Command(bin, append([]string{"--web.listen-address=" + addr}, args...)...)
	cmd.Stderr = io.Discard
	if testing.Verbose() {
		cmd.Stderr = os.Stderr
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cmd.Process.Kill(); cmd.Wait() })
	e := &exporter{base: "http://" + addr, cmd: cmd}
	for i := 0; i < 200; i++ {
		if resp, err := http.Get(e.base + "/-/healthy"); err == nil {
			resp.Body.Close()
			return e
		}
		time.Sleep(25 * time.Millisecond)
	}
	t.Fatal("exporter did not become healthy")
	return nil
}

func (e *exporter) get(t *testing.T, path string) (int, string) {
	t.Helper()
	resp, err := http.Get(e.base + path)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, string(b)
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
	code, body := e.get(t, "/metrics")
	if code != 200 {
		t.Fatalf("/metrics: %d", code)
	}
	wantAll(t, body, "gameserver_exporter_build_info", "go_goroutines", "process_resident_memory_bytes",
		"gameserver_exporter_config_last_reload_successful 1")
	_, body = e.get(t, "/config")
	wantAll(t, body, "modules:", "a2s:", "protocol: a2s", "quake3:", "hytale:")
	_, body = e.get(t, "/modules")
	wantAll(t, body, "MODULE", "valheim", "2456", "[1]", "Valheim", "mta", "[123]")
	code, body = e.get(t, "/")
	if code != 200 {
		t.Fatalf("/: %d", code)
	}
	wantAll(t, body, "gameserver_exporter", `name="target"`, `id="module"`, "No probes yet")
	if code, _ := e.get(t, "/-/ready"); code != 200 {
		t.Errorf("/-/ready: %d", code)
	}
	code, body = e.get(t, "/probe?module=nope&target=127.0.0.1")
	if code != 400 {
		t.Errorf("unknown module: %d", code)
	}
	wantAll(t, body, "a2s", "quake3", "hytale")
	if code, _ := e.get(t, "/-/reload"); code != http.StatusMethodNotAllowed {
		t.Errorf("GET /-/reload: %d", code)
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
	a2sInfo := append([]byte("\xff\xff\xff\xffI\x11A2S Test\x00de_dust2\x00csgo\x00Counter-Strike\x00"),
		0xda, 0x02, 5, 16, 1, 'd', 'l', 0, 1)
	a2sInfo = append(a2sInfo, "1.0.0.0\x00"...)
	a2s := prototest.UDP(t, func(req []byte) [][]byte {
		if len(req) == 25 { // first A2S_INFO: demand a challenge
			return [][]byte{[]byte("\xff\xff\xff\xffA\x01\x02\x03\x04")}
		}
		if len(req) == 29 && string(req[25:]) == "\x01\x02\x03\x04" {
			return [][]byte{a2sInfo}
		}
		return nil
	})
	e := startExporter(t)
	tests := []struct {
		module string
		target string
		want   []string
	}{
		{"hytale", hytale.String(), []string{"probe_success 1", "gameserver_players 7", "gameserver_players_max 50"}},
		{"quake3", quake3.String(), []string{"probe_success 1", "gameserver_players 1", "gameserver_bots 1", "gameserver_players_max 12",
			`name="Test Arena"`, `map="q3dm17"`, "gameserver_password_required 0"}},
		{"a2s", a2s.String(), []string{"probe_success 1", "gameserver_players_max 16", `name="A2S Test"`,
			`map="de_dust2"`, `gameserver_query_duration_seconds{phase="challenge"}`}},
	}
	for _, tc := range tests {
		t.Run(tc.module, func(t *testing.T) {
			code, body := e.get(t, "/probe?module="+tc.module+"&target="+tc.target)
			if code != 200 {
				t.Fatalf("status %d: %s", code, body)
			}
			wantAll(t, body, tc.want...)
			_, dbg := e.get(t, "/probe?debug=true&module="+tc.module+"&target="+tc.target)
			wantAll(t, dbg, "Logs for the probe:", "Packets:", "#1 sent", "received")
		})
	}
	// A silent server fails as a timeout within the scrape budget, HTTP 200.
	silent := prototest.Silent(t)
	req, _ := http.NewRequest("GET", e.base+"/probe?module=a2s&target="+silent.String(), nil)
	req.Header.Set("X-Prometheus-Scrape-Timeout-Seconds", "1")
	start := time.Now()
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	b, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if el := time.Since(start); el > 1500*time.Millisecond {
		t.Errorf("silent probe took %s with a 0.5s budget", el)
	}
	if resp.StatusCode != 200 {
		t.Errorf("silent probe status %d", resp.StatusCode)
	}
	wantAll(t, string(b), "probe_success 0", `probe_failure_info{reason="timeout"} 1`)
	_, landing := e.get(t, "/")
	wantAll(t, landing, `<span class="reason">timeout</span>`, "/logs?id=", `<tr class="down">`)
}

func TestReload(t *testing.T) {
	path := filepath.Join(t.TempDir(), "modules.yml")
	os.WriteFile(path, []byte("modules:\n  mine:\n    protocol: quake3\n"), 0o644)
	e := startExporter(t, "--config.file="+path)
	if _, body := e.get(t, "/config"); !strings.Contains(body, "mine:") {
		t.Fatalf("config lacks module mine:\n%s", body)
	}
	os.WriteFile(path, []byte("modules:\n  theirs:\n    protocol: hytale\n"), 0o644)
	resp, err := http.Post(e.base+"/-/reload", "", nil)
	if err != nil || resp.StatusCode != 200 {
		t.Fatalf("POST /-/reload: %v %v", resp, err)
	}
	if _, body := e.get(t, "/config"); !strings.Contains(body, "theirs:") || strings.Contains(body, "mine:") {
		t.Fatalf("reload did not take:\n%s", body)
	}
	// A bad file keeps the old config and says so on /metrics.
	os.WriteFile(path, []byte("modules:\n  bad:\n    protocol: quake3\n    bogus: 1\n"), 0o644)
	e.cmd.Process.Signal(syscall.SIGHUP)
	deadline := time.Now().Add(5 * time.Second)
	for {
		_, m := e.get(t, "/metrics")
		if strings.Contains(m, "gameserver_exporter_config_last_reload_successful 0") {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("SIGHUP with a bad file did not set config_last_reload_successful 0")
		}
		time.Sleep(20 * time.Millisecond)
	}
	if _, body := e.get(t, "/config"); !strings.Contains(body, "theirs:") {
		t.Fatalf("a bad reload must keep the old config:\n%s", body)
	}
}

func TestConfigCheck(t *testing.T) {
	dir := t.TempDir()
	good := filepath.Join(dir, "good.yml")
	bad := filepath.Join(dir, "bad.yml")
	os.WriteFile(good, []byte("modules:\n  m:\n    protocol: a2s\n"), 0o644)
	os.WriteFile(bad, []byte("modules:\n  m:\n    protocol: a2s\n    nope: 1\n"), 0o644)
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	if out, err := exec.CommandContext(ctx, binary, "--config.check", "--config.file="+good).CombinedOutput(); err != nil {
		t.Errorf("good file: %v %s", err, out)
	}
	out, err := exec.CommandContext(ctx, binary, "--config.check", "--config.file="+bad).CombinedOutput()
	if err == nil || !strings.Contains(string(out), "bad.yml:4:5") || !strings.Contains(string(out), `unknown field \"nope\"`) {
		t.Errorf("bad file must fail naming the file, line, column and key: %v %s", err, out)
	}
	if out, err := exec.CommandContext(ctx, binary, "--config.check").CombinedOutput(); err != nil || !strings.Contains(string(out), "built-in modules") {
		t.Errorf("--config.check without a file must say it checked the built-in modules: %v %s", err, out)
	}
	if out, err := exec.CommandContext(ctx, binary, "--version").CombinedOutput(); err != nil || !strings.Contains(string(out), "gameserver_exporter") {
		t.Errorf("--version: %v %s", err, out)
	}
}

func TestQueryCommand(t *testing.T) {
	hytale := prototest.TCP(t, func(c net.Conn) {
		bufio.NewReader(c).ReadString('\n')
		c.Write([]byte("OK 4 32\n"))
	})
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	out, err := exec.CommandContext(ctx, binary, "query", "--module", "hytale", hytale.String()).CombinedOutput()
	if err != nil {
		t.Fatalf("query: %v %s", err, out)
	}
	wantAll(t, string(out), "up, answered in", "players:  4/32")
	out, err = exec.CommandContext(ctx, binary, "query", "-m", "hytale", "--json", hytale.String()).Output()
	if err != nil {
		t.Fatalf("query --json: %v %s", err, out)
	}
	var rep struct {
		Success    bool   `json:"success"`
		Players    *int64 `json:"players"`
		MaxPlayers *int64 `json:"max_players"`
	}
	if err := json.Unmarshal(out, &rep); err != nil || !rep.Success || rep.Players == nil || *rep.Players != 4 || *rep.MaxPlayers != 32 {
		t.Errorf("query --json: %v %s", err, out)
	}
	out, _ = exec.CommandContext(ctx, binary, "query", "-m", "hytale", "--debug", hytale.String()).Output()
	wantAll(t, string(out), "Packets:", "51 55 45 52 59 0a")
	// A server that is down: exit code 1 and the reason.
	cmd := exec.CommandContext(ctx, binary, "query", "-m", "a2s", "--timeout", "0.5", prototest.Silent(t).String())
	out, err = cmd.CombinedOutput()
	if ee, ok := err.(*exec.ExitError); !ok || ee.ExitCode() != 1 {
		t.Errorf("a down server must exit 1: %v %s", err, out)
	}
	wantAll(t, string(out), "DOWN", "timeout")
}

// TestReloadRefusesBody: a reload never waits on a request body, and a client that
// sends one (or drips it) is answered and disconnected at once, without a reload.
func TestReloadRefusesBody(t *testing.T) {
	e := startExporter(t)
	conn, err := net.Dial("tcp", strings.TrimPrefix(e.base, "http://"))
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
	if !strings.Contains(string(b), "413") || !strings.Contains(string(b), "takes no request body") {
		t.Errorf("answer: %q", b)
	}
	_, m := e.get(t, "/metrics")
	wantAll(t, m, "gameserver_exporter_config_last_reload_successful 1")
}

// TestCommandFlags: the server's flags belong to serve, the default command: they
// work without naming it, and `query --help` lists only the query's own.
func TestCommandFlags(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	out, err := exec.CommandContext(ctx, binary, "query", "--help").CombinedOutput()
	if err != nil {
		t.Fatalf("query --help: %v %s", err, out)
	}
	wantAll(t, string(out), "--timeout", "-f, --file=FILE", "-m, --module", "[<target>...]", "--config.file")
	for _, serveOnly := range []string{"--web.listen-address", "--probe.max-concurrent", "--config.check", "--history.limit"} {
		if strings.Contains(string(out), serveOnly) {
			t.Errorf("query --help lists the server's %s:\n%s", serveOnly, out)
		}
	}
	out, _ = exec.CommandContext(ctx, binary, "serve", "--help").CombinedOutput()
	wantAll(t, string(out), "--web.listen-address", "--probe.max-concurrent")
	if out, err := exec.CommandContext(ctx, binary, "--probe.max-concurrent=5", "--config.check").CombinedOutput(); err != nil {
		t.Errorf("serve flags without serve: %v %s", err, out)
	}
	if out, err := exec.CommandContext(ctx, binary, "query", "--web.listen-address=:1", "127.0.0.1:1").CombinedOutput(); err == nil || !strings.Contains(string(out), "unknown long flag") {
		t.Errorf("query must refuse the server's flags: %v %s", err, out)
	}
	// The exporter started the usual way, flags and no command.
	e := startExporter(t, "--probe.min-interval=0s", "--timeout-offset=0.2")
	if code, body := e.get(t, "/-/healthy"); code != 200 {
		t.Errorf("/-/healthy: %d %s", code, body)
	}
	out, err = exec.CommandContext(ctx, binary, "query", "--timeout", "2s", prototest.A2SServer(t).String()).CombinedOutput()
	if err != nil || !strings.Contains(string(out), "(auto: a2s on port") {
		t.Errorf("query --timeout 2s: %v %s", err, out)
	}
}
