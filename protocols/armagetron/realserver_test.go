package armagetron

import (
	"bytes"
	"context"
	"fmt"
	"net"
	"net/netip"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/gameserver-exporter/gameserver_exporter/protocols"
)

// TestRealServer starts the Debian armagetronad-dedicated on 127.0.0.1 with
// master-server contact off and checks the Querier against the server's own
// configuration (no reference client here reads Armagetron except gamedig).
// The fresh server has never been primed, so this also proves the small
// request comes first.
func TestRealServer(t *testing.T) {
	if testing.Short() {
		t.Skip("starts a real Armagetron server: skipped with -short")
	}
	needDebian(t, "armagetronad-dedicated")
	port := freePort(t)
	dir := t.TempDir()
	for _, d := range []string{"cfg", "var", "data"} {
		if err := os.Mkdir(filepath.Join(dir, d), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	cfg := fmt.Sprintf("SERVER_IP 127.0.0.1\nSERVER_PORT %d\nSERVER_NAME 0x00ff00Exporter 0xffffffTest Grid\n"+
		"TALK_TO_MASTER 0\nMAX_CLIENTS 5\n", port)
	writeFile(t, filepath.Join(dir, "cfg", "settings_custom.cfg"), cfg)
	writeFile(t, filepath.Join(dir, "cfg", "autoexec.cfg"), cfg)
	startServer(t, dir, "/usr/games/armagetronad-dedicated.real",
		"--datadir", "/usr/share/games/armagetronad", "--configdir", "/etc/armagetronad",
		"--userconfigdir", filepath.Join(dir, "cfg"), "--vardir", filepath.Join(dir, "var"),
		"--userdatadir", filepath.Join(dir, "data"), "-d")

	addr := netip.AddrPortFrom(netip.MustParseAddr("127.0.0.1"), port)
	q, _ := Protocol.New(protocols.Settings{Players: true, Rules: true})
	var res *protocols.Result
	poll(t, 25*time.Second, func() error {
		ctx, cancel := context.WithTimeout(context.Background(), 500*time.Millisecond)
		defer cancel()
		var err error
		res, err = q.Query(ctx, addr, nil)
		return err
	})
	info := map[string]string{}
	for _, kv := range res.Info {
		info[kv.Key] = kv.Value
	}
	if res.Name != "Exporter Test Grid" || res.MaxPlayers != protocols.Known(5) || res.Players != protocols.Known(0) ||
		len(res.PlayerList) != 0 || !strings.HasPrefix(res.Version, "0.2") {
		t.Errorf("result %+v", res)
	}
	if info["name"] != "0x00ff00Exporter 0xffffffTest Grid" || info["port"] != fmt.Sprint(port) {
		t.Errorf("info %v", info)
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

// freePort finds a free loopback UDP port.
func freePort(t *testing.T) uint16 {
	t.Helper()
	pc, err := net.ListenPacket("udp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer pc.Close()
	return uint16(pc.LocalAddr().(*net.UDPAddr).Port)
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
