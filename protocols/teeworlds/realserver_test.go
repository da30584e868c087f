package teeworlds

import (
	"bytes"
	"context"
	"errors"
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

// TestRealServer starts the Debian teeworlds-server (0.7.5) on 127.0.0.1 with
// master registration off and checks the 0.7 handshake against the server's
// configuration: no reference client speaks 0.7 (qstat -tees only asks with
// 0.5/0.6 requests, which this server ignores, as checked here too).
func TestRealServer(t *testing.T) {
	if testing.Short() {
		t.Skip("starts a real Teeworlds server: skipped with -short")
	}
	needDebian(t, "teeworlds-server")
	port := freePort(t)
	dir := t.TempDir()
	// -f only accepts paths relative to the storage dirs: the cwd is one
	writeFile(t, filepath.Join(dir, "server.cfg"), fmt.Sprintf(`sv_name "Exporter Test Tee"
sv_port %d
bindaddr 127.0.0.1
sv_register 0
sv_max_clients 9
sv_map dm2
sv_gametype ctf
password "secret"
`, port))
	startServer(t, dir, "/usr/games/teeworlds-server", "-f", "server.cfg")

	addr := netip.AddrPortFrom(netip.MustParseAddr("127.0.0.1"), port)
	for _, version := range []string{VersionAuto, Version07} {
		q, _ := New(protocols.Settings{Players: true, Retries: 1, Options: func(v any) error { v.(*Options).Version = version; return nil }})
		var res *protocols.Result
		poll(t, 20*time.Second, func() error {
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
		if res.Name != "Exporter Test Tee" || res.Map != "dm2" || res.Game != "CTF" || res.MaxPlayers != protocols.Known(9) ||
			res.Players != protocols.Known(0) || res.Password != protocols.FlagTrue || !strings.HasPrefix(res.Version, "0.7") ||
			res.PlayerList == nil || len(res.PlayerList) != 0 || info["protocol"] != "0.7" {
			t.Errorf("%s: result %+v", version, res)
		}
		t.Logf("%s: %q %s %s %s, %v", version, res.Name, res.Version, res.Game, res.Map, info)
	}
	// The 0.6 request gets no answer from a 0.7 server.
	q, _ := New(protocols.Settings{Options: func(v any) error { v.(*Options).Version = Version06; return nil }})
	ctx, cancel := context.WithTimeout(context.Background(), 300*time.Millisecond)
	defer cancel()
	if _, err := q.Query(ctx, addr, nil); !errors.Is(err, protocols.ErrTimeout) {
		t.Errorf("0.6 query of a 0.7 server: %v, want timeout", err)
	}
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
