package e2e

import (
	"bytes"
	"errors"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"
)

// The exporter is built once per test binary, static (CGO_ENABLED=0) so the same
// binary serves the flag checks, the end-to-end test and the container image.
var (
	buildOnce sync.Once
	buildDir  string
	binPath   string
	buildErr  error
)

func TestMain(m *testing.M) {
	code := m.Run()
	if buildDir != "" {
		os.RemoveAll(buildDir)
	}
	os.Exit(code)
}

// repoRoot is the module root: the tests run in <root>/e2e.
func repoRoot(t testing.TB) string {
	t.Helper()
	wd, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	root := filepath.Dir(wd)
	if _, err := os.Stat(filepath.Join(root, "go.mod")); err != nil {
		t.Fatalf("no go.mod in %s: run the tests from the e2e package directory", root)
	}
	return root
}

// exporterBinary builds gameserver_exporter from the repository root into a
// temporary directory (the repository stays clean) and returns its path.
func exporterBinary(t testing.TB) string {
	t.Helper()
	root := repoRoot(t)
	buildOnce.Do(func() {
		buildDir, buildErr = os.MkdirTemp("", "gse-e2e-bin-")
		if buildErr != nil {
			return
		}
		binPath = filepath.Join(buildDir, "gameserver_exporter")
		cmd := exec.Command("go", "build", "-trimpath", "-o", binPath, ".")
		cmd.Dir = root
		cmd.Env = append(os.Environ(), "CGO_ENABLED=0")
		if out, err := cmd.CombinedOutput(); err != nil {
			buildErr = fmt.Errorf("go build: %v\n%s", err, out)
		}
	})
	if buildErr != nil {
		t.Fatal(buildErr)
	}
	return binPath
}

// lookTool returns the path of an external tool, or skips the test saying how to
// get it.
func lookTool(t testing.TB, name, pkg string) string {
	t.Helper()
	p, err := exec.LookPath(name)
	if err != nil {
		t.Skipf("%s is not installed (Debian package %s): skipping; `make test` installs it as root", name, pkg)
	}
	return p
}

// proc is a process started for a test, in its own process group so that
// stopping it also stops what it spawned (openarena-server is a shell wrapper).
type proc struct {
	name string
	cmd  *exec.Cmd
	log  string
	done chan struct{}
	err  error
}

// startProc starts argv with extra environment variables; its output goes to a
// log file that is printed when the test fails. It is stopped when the test ends.
func startProc(t testing.TB, name, dir string, env []string, argv ...string) *proc {
	t.Helper()
	logPath := filepath.Join(t.TempDir(), name+".log")
	f, err := os.Create(logPath)
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(argv[0], argv[1:]...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), env...)
	cmd.Stdout, cmd.Stderr = f, f
	ownGroup(cmd)
	if err := cmd.Start(); err != nil {
		f.Close()
		t.Fatalf("start %s: %v", name, err)
	}
	p := &proc{name: name, cmd: cmd, log: logPath, done: make(chan struct{})}
	go func() {
		p.err = cmd.Wait()
		f.Close()
		close(p.done)
	}()
	t.Cleanup(func() {
		p.stop()
		if t.Failed() {
			t.Logf("--- %s log (tail) ---\n%s", name, p.tail(3000))
		}
	})
	return p
}

// stop sends SIGTERM to the process group, then SIGKILL if it lingers.
func (p *proc) stop() {
	select {
	case <-p.done:
		return
	default:
	}
	terminateGroup(p.cmd)
	select {
	case <-p.done:
	case <-time.After(15 * time.Second):
		killGroup(p.cmd)
		<-p.done
	}
}

func (p *proc) exited() bool {
	select {
	case <-p.done:
		return true
	default:
		return false
	}
}

func (p *proc) tail(n int) string {
	b, _ := os.ReadFile(p.log)
	if len(b) > n {
		b = b[len(b)-n:]
	}
	return string(b)
}

// freePort returns a loopback port that was free a moment ago ("tcp" or "udp").
func freePort(t testing.TB, network string) int {
	t.Helper()
	switch network {
	case "udp":
		pc, err := net.ListenPacket("udp", "127.0.0.1:0")
		if err != nil {
			t.Fatal(err)
		}
		defer pc.Close()
		return pc.LocalAddr().(*net.UDPAddr).Port
	default:
		l, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			t.Fatal(err)
		}
		defer l.Close()
		return l.Addr().(*net.TCPAddr).Port
	}
}

// waitFor polls cond until it holds or timeout passes; cond returns whether it
// holds and a description of what it saw, reported on timeout. The machine may be
// loaded: timeouts are generous, and the poll returns as soon as cond holds.
func waitFor(t testing.TB, timeout time.Duration, what string, cond func() (bool, string)) string {
	t.Helper()
	return waitEvery(t, 250*time.Millisecond, timeout, what, cond)
}

// waitEvery is waitFor polling at most once per interval.
func waitEvery(t testing.TB, interval, timeout time.Duration, what string, cond func() (bool, string)) string {
	t.Helper()
	deadline := time.Now().Add(timeout)
	tick := time.NewTicker(interval)
	defer tick.Stop()
	for {
		ok, state := cond()
		if ok {
			return state
		}
		if time.Now().After(deadline) {
			t.Fatalf("timed out after %v waiting for %s; last seen: %s", timeout, what, state)
		}
		<-tick.C
	}
}

// runTool runs a command with a timeout and returns its combined output.
func runTool(timeout time.Duration, dir string, argv ...string) (string, error) {
	cmd := exec.Command(argv[0], argv[1:]...)
	cmd.Dir = dir
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	if err := cmd.Start(); err != nil {
		return "", err
	}
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	select {
	case err := <-done:
		return out.String(), err
	case <-time.After(timeout):
		cmd.Process.Kill()
		<-done
		return out.String(), errors.New(strings.Join(argv, " ") + ": timed out after " + timeout.String())
	}
}
