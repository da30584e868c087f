package openttd

import (
	"bytes"
	"context"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/gameserver-exporter/gameserver_exporter/protocols"
)

// TestRealServer starts the Debian openttd in dedicated mode on 127.0.0.1
// (local game type, no relay or coordinator, so nothing leaves the machine)
// and checks the Querier against the server's own configuration: no reference
// client can read OpenTTD 13 (qstat -ottds speaks the old UDP protocol).
func TestRealServer(t *testing.T) {
	if testing.Short() {
		t.Skip("starts a real OpenTTD server: skipped with -short")
	}
	needDebian(t, "openttd", "openttd-opengfx")
	const name = "Exporter Test OpenTTD"
	port := freePort(t)
	dir := t.TempDir()
	cfg := filepath.Join(dir, "openttd.cfg")
	writeFile(t, cfg, fmt.Sprintf(`[network]
server_name = %s
server_port = %d
server_bind_addresses = 127.0.0.1
server_game_type = local
max_clients = 7
max_companies = 5
use_relay_service = never
[game_creation]
map_x = 6
map_y = 7
landscape = arctic
[gui]
autosave = off
`, name, port))
	startServer(t, dir, "/usr/games/openttd", "-D", fmt.Sprintf("127.0.0.1:%d", port), "-c", cfg,
		"-x", "-s", "null", "-m", "null", "-G", "4242")

	addr := netipAddr(port)
	q, _ := Protocol.New(protocols.Settings{Rules: true})
	var res *protocols.Result
	poll(t, 25*time.Second, func() error {
		ctx, cancel := context.WithTimeout(context.Background(), time.Second)
		defer cancel()
		var err error
		res, err = q.Query(ctx, addr, nil)
		return err
	})
	info := map[string]string{}
	for _, kv := range res.Info {
		info[kv.Key] = kv.Value
	}
	if res.Name != name || res.MaxPlayers != protocols.Known(7) || res.Players != protocols.Known(0) ||
		res.Password != protocols.FlagFalse || !strings.HasPrefix(res.Version, "1") || res.Map != "" {
		t.Errorf("result %+v", res)
	}
	for k, v := range map[string]string{
		"companies_max": "5", "companies_on": "0", "map_width": "64", "map_height": "128",
		"landscape": "sub-arctic", "dedicated": "true", "game_info_version": "6",
	} {
		if info[k] != v && !(k == "game_info_version" && info[k] == "7") { // 14+ send version 7
			t.Errorf("info %s = %q, want %q (all: %v)", k, info[k], v, info)
		}
	}
	t.Logf("real server: %q %s, %v", res.Name, res.Version, info)
}

// needDebian installs the Debian packages when they are missing and we are
// root, the way start.sh does (package scripts may not start services), and
// skips the test when that is impossible.
func needDebian(t *testing.T, pkgs ...string) {
	t.Helper()
	var missing []string
	for _, p := range pkgs {
		out, _ := exec.Command("dpkg-query", "-W", "-f=${Status}", p).Output()
		if !bytes.Contains(out, []byte("ok installed")) {
			missing = append(missing, p)
		}
	}
	if len(missing) == 0 {
		return
	}
	if os.Geteuid() != 0 {
		t.Skipf("Debian packages %v are not installed and we are not root: skipping", missing)
	}
	if _, err := os.Stat("/usr/sbin/policy-rc.d"); os.IsNotExist(err) {
		writeFile(t, "/usr/sbin/policy-rc.d", "#!/bin/sh\nexit 101\n")
		os.Chmod("/usr/sbin/policy-rc.d", 0o755)
		defer os.Remove("/usr/sbin/policy-rc.d")
	}
	install := func() error {
		cmd := exec.Command("apt-get", append([]string{"install", "-y", "--no-install-recommends"}, missing...)...)
		cmd.Env = append(os.Environ(), "DEBIAN_FRONTEND=noninteractive")
		out, err := cmd.CombinedOutput()
		if err != nil {
			return fmt.Errorf("%v: %s", err, lastLines(out))
		}
		return nil
	}
	if err := install(); err != nil {
		if out, err := exec.Command("apt-get", "update").CombinedOutput(); err != nil {
			t.Skipf("apt-get update failed (%v): %s", err, lastLines(out))
		}
		if err := install(); err != nil {
			t.Skipf("cannot install %v: %v", missing, err)
		}
	}
}

func lastLines(b []byte) string {
	lines := strings.Split(strings.TrimSpace(string(b)), "\n")
	return strings.Join(lines[max(0, len(lines)-3):], " | ")
}

// freePort finds a loopback port free for both TCP and UDP (OpenTTD binds both).
func freePort(t *testing.T) uint16 {
	t.Helper()
	for range 20 {
		l, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			t.Fatal(err)
		}
		port := l.Addr().(*net.TCPAddr).Port
		u, err := net.ListenPacket("udp", fmt.Sprintf("127.0.0.1:%d", port))
		l.Close()
		if err == nil {
			u.Close()
			return uint16(port)
		}
	}
	t.Fatal("no free port")
	return 0
}

func writeFile(t *testing.T, path, s string) {
	t.Helper()
	if err := os.WriteFile(path, []byte(s), 0o644); err != nil {
		t.Fatal(err)
	}
}

// syncBuffer collects the server's output for failure messages.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

// startServer runs the server with HOME and the working directory in dir and
// kills exactly that process when the test ends.
func startServer(t *testing.T, dir, bin string, args ...string) {
	t.Helper()
	if _, err := os.Stat(bin); err != nil {
		t.Skipf("%s missing after install: %v", bin, err)
	}
	cmd := exec.Command(bin, args...)
	cmd.Dir = dir
	cmd.Env = []string{"HOME=" + dir, "PATH=/usr/bin:/bin:/usr/games", "LANG=C.UTF-8"}
	out := &syncBuffer{}
	cmd.Stdout, cmd.Stderr = out, out
	if err := cmd.Start(); err != nil {
		t.Skipf("cannot start %s: %v", bin, err)
	}
	exited := make(chan struct{})
	go func() { cmd.Wait(); close(exited) }()
	t.Cleanup(func() {
		cmd.Process.Kill()
		<-exited
		if t.Failed() {
			t.Logf("server output:\n%s", out.String())
		}
	})
}

// poll retries probe until it succeeds or the deadline passes. Each probe
// carries its own deadline; the ticker only paces probes that fail at once
// (connection refused while the server starts).
func poll(t *testing.T, within time.Duration, probe func() error) {
	t.Helper()
	deadline := time.Now().Add(within)
	tick := time.NewTicker(100 * time.Millisecond)
	defer tick.Stop()
	for {
		err := probe()
		if err == nil {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("server did not answer within %v: %v", within, err)
		}
		<-tick.C
	}
}
