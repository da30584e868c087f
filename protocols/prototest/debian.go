package prototest

import (
	"bytes"
	"fmt"
	"net"
	"os"
	"os/exec"
	"strings"
	"sync"
	"testing"
	"time"
)

// NeedDebian installs Debian packages that are missing when we are root (with
// services kept from starting: the tests start their own servers on loopback), and
// skips the test when that is impossible.
func NeedDebian(t testing.TB, pkgs ...string) {
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
		WriteFile(t, "/usr/sbin/policy-rc.d", "#!/bin/sh\nexit 101\n")
		os.Chmod("/usr/sbin/policy-rc.d", 0o755)
		defer os.Remove("/usr/sbin/policy-rc.d")
	}
	install := func() error {
		cmd := exec.Command("apt-get", append([]string{"install", "-y", "--no-install-recommends"}, missing...)...)
		cmd.Env = append(os.Environ(), "DEBIAN_FRONTEND=noninteractive")
		if out, err := cmd.CombinedOutput(); err != nil {
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

// FreePort finds a loopback port free for both TCP and UDP (servers often bind both).
func FreePort(t testing.TB) uint16 {
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

// WriteFile writes s to path or fails the test.
func WriteFile(t testing.TB, path, s string) {
	t.Helper()
	if err := os.WriteFile(path, []byte(s), 0o644); err != nil {
		t.Fatal(err)
	}
}

// syncBuffer collects a server's output for failure messages.
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

// StartServer runs a real server with HOME and the working directory in dir, kills
// exactly that process when the test ends, and logs its output if the test failed.
func StartServer(t testing.TB, dir, bin string, args ...string) {
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

// Poll retries probe until it succeeds or the time is up. Each probe carries its
// own deadline; the ticker only paces probes that fail at once (connection refused
// while a server starts).
func Poll(t testing.TB, within time.Duration, probe func() error) {
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
