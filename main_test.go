package main

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/netip"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"strconv"
	"strings"
	"sync"
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

// readFile is the checkout's file at path; the test fails when it is missing.
func readFile(t *testing.T, path string) string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// writeFile writes a test's file, failing the test on an error.
func writeFile(t *testing.T, path, content string) string {
	t.Helper()
	prototest.WriteFile(t, path, content)
	return path
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
		prototest.WantAll(t, body, c.wants...)
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
	// A reload never waits on a request body: a client that sends one (or drips
	// it) is answered and disconnected at once, without a reload.
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
	prototest.WantAll(t, string(b), "413", "takes no request body")
	_, m := e.Get(t, "/metrics")
	prototest.WantAll(t, m, "gameserver_exporter_config_last_reload_successful 1")
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

// TestCommandLine: --config.check names each error by file, line, column and key;
// serve's flags work without naming serve, the query refuses them; a busy port
// names the flag (and make variable) that picks another.
func TestCommandLine(t *testing.T) {
	dir := t.TempDir()
	file := func(name, content string) string {
		return "--config.file=" + writeFile(t, filepath.Join(dir, name), content)
	}
	busy, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer busy.Close()
	for _, c := range []struct {
		args      []string
		ok        bool
		wants     []string
		errorsOut int // how many "Error loading config" lines
	}{
		{[]string{"--config.check", file("ok.yml", "modules:\n  m:\n    protocol: a2s\n")}, true, nil, 0},
		{[]string{"--config.check", file("key.yml", "modules:\n  m:\n    protocol: a2s\n    nope: 1\n")}, false,
			[]string{"key.yml:4:5", `unknown field \"nope\"`}, 1},
		{[]string{"--config.check", file("all.yml", // every error, one a line
			"modules:\n  m:\n    protocol: a2s\n    nope: 1\n  bad name!:\n    protocol: a2s\n  n:\n    protocol: quake9\n")}, false,
			[]string{"all.yml:4:5", "all.yml:5:3", "all.yml:8:5"}, 3},
		// A module that drops a built-in's ports is warned of.
		{[]string{"--config.check", file("valheim.yml", "modules:\n  valheim:\n    protocol: a2s\n")}, true, []string{"replaces the built-in module"}, 0},
		{[]string{"--config.check"}, true, []string{"built-in modules"}, 0},
		{[]string{"--probe.max-concurrent=5", "--config.check"}, true, nil, 0},
		{[]string{"query", "--web.listen-address=:1", "127.0.0.1:1"}, false, []string{"unknown long flag"}, 0},
		{[]string{"--web.listen-address=" + busy.Addr().String()}, false, []string{"address already in use", "--web.listen-address=:PORT (make run PORT=...)"}, 0},
	} {
		out, err := exe(c.args...)
		if (err == nil) != c.ok || strings.Count(out, "Error loading config") != c.errorsOut {
			t.Errorf("%q: %v, want ok %v and %d errors:\n%s", c.args, err, c.ok, c.errorsOut, out)
		}
		prototest.WantAll(t, out, c.wants...)
	}
}

// TestQueryCommand: the binary's query command, up and down.
func TestQueryCommand(t *testing.T) {
	hytale := prototest.TCP(t, func(c net.Conn) {
		bufio.NewReader(c).ReadString('\n')
		c.Write([]byte("OK 4 32\n"))
	}).String()
	out, err := exe("query", "--module", "hytale", hytale)
	if err != nil {
		t.Fatalf("query: %v %s", err, out)
	}
	prototest.WantAll(t, out, "up, answered in", "players:  4/32") // --json, --debug: internal/cli's tests
	// A server that is down: exit code 1 and the reason.
	out, err = exe("query", "-m", "a2s", "--timeout", "0.5", prototest.Silent(t).String())
	if ee, ok := err.(*exec.ExitError); !ok || ee.ExitCode() != 1 {
		t.Errorf("a down server must exit 1: %v %s", err, out)
	}
	prototest.WantAll(t, out, "DOWN", "timeout")
}

// TestCommandFlags: the server's flags belong to serve, the default command: they
// work without naming it, the top-level --help lists them (exporter-toolkit's
// among them) besides the commands, and `query --help` lists only the query's own.
func TestCommandFlags(t *testing.T) {
	for _, arg := range []string{"--help", "-h"} {
		out, err := exe(arg)
		if err != nil {
			t.Fatalf("%s: %v\n%s", arg, err, out)
		}
		prototest.WantAll(t, out, "Flags of serve, the default command:", "--web.listen-address", "--web.config.file",
			"web.systemd-socket", "--probe.max-concurrent", "config.check", "Commands:", "query")
	}
	out, err := exe("query", "--help")
	if err != nil {
		t.Fatalf("query --help: %v %s", err, out)
	}
	prototest.WantAll(t, out, "--timeout", "-f, --file=FILE", "-m, --module", "[<target>...]", "--config.file")
	for _, serveOnly := range []string{"--web.listen-address", "--probe.max-concurrent", "--config.check", "--history.limit"} {
		if strings.Contains(out, serveOnly) {
			t.Errorf("query --help lists the server's %s:\n%s", serveOnly, out)
		}
	}
	out, _ = exe("serve", "--help")
	prototest.WantAll(t, out, "--web.listen-address", "--probe.max-concurrent")
	// The exporter started the usual way, flags and no command.
	e := startExporter(t, "--probe.min-interval=0s", "--timeout-offset=0.2")
	if code, body := e.Get(t, "/-/healthy"); code != 200 {
		t.Errorf("/-/healthy: %d %s", code, body)
	}
}

// TestMakeRunPort: make run passes PORT as the listen address and ARGS as flags.
func TestMakeRunPort(t *testing.T) {
	needTools(t, "make")
	out, err := exec.Command("make", "--no-print-directory", "-n", "run", "PORT=10116", "ARGS=--log.level=debug --config.file=examples/modules.yml").CombinedOutput()
	if err != nil {
		t.Fatalf("make -n run: %v\n%s", err, out)
	}
	if !strings.Contains(string(out), "./gameserver_exporter --web.listen-address=:10116 --log.level=debug --config.file=examples/modules.yml") {
		t.Errorf("make -n run PORT=10116 ARGS=...:\n%s", out)
	}
	out, _ = exec.Command("make", "--no-print-directory", "-n", "run").CombinedOutput() // no "Entering directory" under make test
	if !strings.Contains(string(out), "./gameserver_exporter \n") && !strings.HasSuffix(strings.TrimRight(string(out), " \n"), "./gameserver_exporter") {
		t.Errorf("make -n run without PORT must run the binary without flags:\n%s", out)
	}
}

// TestDiscoveryEndpoints: with a source on a fake dpmaster listing one of two
// Quake 3 servers, /sd serves the listed one, /metrics the source's state, and
// listed_in and protocol list say which server is listed.
func TestDiscoveryEndpoints(t *testing.T) {
	listed := prototest.Quake3Server(t, "")
	unlisted := prototest.Quake3Server(t, "")
	master := prototest.UDP(t, func(req []byte) [][]byte { // the source's default query
		if !strings.HasPrefix(string(req), "\xff\xff\xff\xffgetservers 68 ") {
			return nil
		}
		return [][]byte{prototest.GetServersResponse([]netip.AddrPort{listed})}
	})
	path := writeFile(t, filepath.Join(t.TempDir(), "modules.yml"), fmt.Sprintf(`
modules: {q3: {protocol: quake3, listed_in: [community]}, fromlist: {protocol: list, list: {source: community}}}
discovery: {community: {type: quake3, address: %s, module: q3, refresh: 1m, timeout: 2s}}
`, master))
	e := startExporter(t, "--config.file="+path)

	var code int
	var body string
	testenv.WaitEvery(t, 20*time.Millisecond, 10*time.Second, "the source's first refresh", func() (bool, string) {
		code, body = e.Get(t, "/sd?source=community")
		return code != 503, body
	})
	want := fmt.Sprintf(`[{"targets":["%s"],"labels":{"source":"community","__param_module":"q3"}}]`, listed)
	if code != 200 || strings.TrimSpace(body) != want {
		t.Fatalf("/sd: %d %s\nwant %s", code, body, want)
	}
	if code, body := e.Get(t, "/sd?source=nope"); code != 404 || !strings.Contains(body, "known: community") {
		t.Errorf("unknown source: %d %s", code, body)
	}
	_, metrics := e.Get(t, "/metrics")
	prototest.WantAll(t, metrics, `gameserver_discovery_targets{source="community"} 1`, `gameserver_discovery_last_refresh_success{source="community"} 1`)
	_, mods := e.Get(t, "/modules")
	prototest.WantAll(t, mods, "SOURCE", "LAST SUCCESS", "community  quake3  q3")
	if regexp.MustCompile(`(?m)^community .*never`).MatchString(mods) {
		t.Errorf("/modules: the source's fetch is not shown:\n%s", mods)
	}
	for _, c := range []struct {
		target netip.AddrPort
		want   string
	}{{listed, "1"}, {unlisted, "0"}} {
		_, probe := e.Get(t, "/probe?module=q3&target="+c.target.String())
		prototest.WantAll(t, probe, "probe_success 1", `gameserver_listed{source="community"} `+c.want)
		// Protocol list reads the same list: listed is up, unlisted is not_listed.
		_, probe = e.Get(t, "/probe?module=fromlist&target="+c.target.String())
		if c.want == "1" {
			prototest.WantAll(t, probe, "probe_success 1")
		} else {
			prototest.WantAll(t, probe, "probe_success 0", `probe_failure_info{reason="not_listed"} 1`)
		}
	}
}

// TestWindowsBinaryUnderWine runs the Windows binary's --version and --config.check
// under wine 9.0 or later: Go's runtime (1.22 on) needs ProcessPrng from
// bcryptprimitives.dll, which Debian 12's wine 8.0 lacks (README, Windows).
func TestWindowsBinaryUnderWine(t *testing.T) {
	if testing.Short() || runtime.GOOS != "linux" || runtime.GOARCH != "amd64" {
		t.Skip("needs linux/amd64 and no -short")
	}
	wine, err := exec.LookPath("wine64")
	if err != nil {
		wine, err = exec.LookPath("wine")
	}
	if err != nil {
		t.Skip("wine not installed (Debian package wine): skipping the Windows binary run")
	}
	exe := filepath.Join(t.TempDir(), "gameserver_exporter.exe")
	build := exec.Command("go", "build", "-trimpath", "-o", exe, ".")
	build.Env = append(os.Environ(), "GOOS=windows", "GOARCH=amd64", "CGO_ENABLED=0")
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("go build for windows: %v\n%s", err, out)
	}
	run := func(args ...string) (string, error) {
		ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
		defer cancel()
		cmd := exec.CommandContext(ctx, wine, append([]string{exe}, args...)...)
		cmd.Env = append(os.Environ(), "WINEPREFIX="+t.TempDir(), "WINEDEBUG=-all", "DISPLAY=")
		out, err := cmd.CombinedOutput()
		return string(out), err
	}
	out, err := run("--version")
	if strings.Contains(out, "bcryptprimitives") {
		v, _ := exec.Command(wine, "--version").Output()
		t.Skipf("%s cannot run Go binaries (bcryptprimitives.dll missing: Wine 9.0 or later has it): skipping\n%s", strings.TrimSpace(string(v)), out)
	}
	if err != nil || !strings.Contains(out, "gameserver_exporter, version") {
		t.Fatalf("--version under wine: %v\n%s", err, out)
	}
	if out, err := run("--config.check", "--config.file=examples/modules.yml"); err != nil || !strings.Contains(out, "Config file is ok") {
		t.Errorf("--config.check under wine: %v\n%s", err, out)
	}
}

// TestCrowdOfCallers: 2,000 concurrent callers of each page hold the exporter
// under 128 MB and leave /-/healthy answering (hostile round, row 3: 945 MB and 3 s).
// A load test: beside parallel -race builds its collector starves (223 MiB once).
func TestCrowdOfCallers(t *testing.T) {
	testenv.LoadTest(t)
	if runtime.GOOS != "linux" {
		t.Skip("reads the exporter's peak RSS from /proc")
	}
	if testing.Short() {
		t.Skip("-short: 10,000 requests")
	}
	e := startExporter(t)
	const callers = 2000
	client := &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: callers, MaxConnsPerHost: callers}, Timeout: 2 * time.Minute}
	for _, path := range []string{"/config", "/", "/modules", "/logs?id=1", "/metrics"} {
		var wg sync.WaitGroup
		var mu sync.Mutex
		codes := map[int]int{}
		var firstErr error // why a caller got no answer, for the log
		start := make(chan struct{})
		for range callers {
			wg.Go(func() {
				<-start
				resp, err := client.Get(e.Base + path)
				code := -1
				if err == nil {
					io.Copy(io.Discard, resp.Body)
					resp.Body.Close()
					code = resp.StatusCode
				}
				mu.Lock()
				codes[code]++
				if err != nil && firstErr == nil {
					firstErr = err
				}
				mu.Unlock()
			})
		}
		close(start)
		// The fastest of a few health checks: a second for it is starvation, not load.
		fastest := time.Hour
		for range 5 {
			t0 := time.Now()
			if resp, err := http.Get(e.Base + "/-/healthy"); err == nil {
				resp.Body.Close()
				fastest = min(fastest, time.Since(t0))
			}
		}
		wg.Wait()
		if fastest > time.Second {
			t.Errorf("%s: /-/healthy took at least %s during the crowd", path, fastest)
		}
		if codes[-1] > 0 || codes[500] > 0 {
			t.Errorf("%s: answers by status %v (-1: no answer: %v)", path, codes, firstErr)
		}
		t.Logf("%s: %v, healthy in %s", path, codes, fastest)
	}
	if hwm := peakRSS(t, e.Cmd.Process.Pid); hwm > 128<<20 {
		t.Errorf("peak RSS %d MiB, want under 128", hwm>>20)
	} else {
		t.Logf("peak RSS %d MiB", hwm>>20)
	}
}

// peakRSS is VmHWM of process pid, in bytes.
func peakRSS(t *testing.T, pid int) int64 {
	t.Helper()
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", pid))
	m := regexp.MustCompile(`(?m)^VmHWM:\s*(\d+) kB$`).FindSubmatch(b)
	if m == nil {
		t.Fatalf("no VmHWM: %v", err)
	}
	kb, _ := strconv.ParseInt(string(m[1]), 10, 64)
	return kb << 10
}
