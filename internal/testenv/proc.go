package testenv

import (
	"bytes"
	"errors"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"
	"time"
)

// Proc is a process a test started, in its own process group so that stopping
// it also stops what it spawned (openarena-server is a shell wrapper).
type Proc struct {
	Name   string
	Cmd    *exec.Cmd
	Err    error // Wait's, once Exited
	log    string
	done   chan struct{}
	exited atomic.Bool // set before done closes
}

// StartProc starts argv in dir with extra environment variables; its output goes
// to a log whose tail is printed when the test fails. It stops when the test ends.
func StartProc(t testing.TB, name, dir string, env []string, argv ...string) *Proc {
	t.Helper()
	logPath := filepath.Join(t.TempDir(), name+".log")
	f, err := os.Create(logPath)
	must(t, err)
	cmd := exec.Command(argv[0], argv[1:]...)
	cmd.Dir, cmd.Env = dir, append(os.Environ(), env...)
	cmd.Stdout, cmd.Stderr = f, f
	ownGroup(cmd)
	if err := cmd.Start(); err != nil {
		f.Close()
		t.Fatalf("start %s: %v", name, err)
	}
	p := &Proc{Name: name, Cmd: cmd, log: logPath, done: make(chan struct{})}
	go func() {
		p.Err = cmd.Wait()
		f.Close()
		p.exited.Store(true)
		close(p.done)
	}()
	t.Cleanup(func() {
		p.Stop()
		if t.Failed() {
			t.Logf("--- %s log (tail) ---\n%s", name, p.Tail(3000))
		}
	})
	return p
}

// stopGrace is how long Stop waits after SIGTERM.
var stopGrace = 15 * time.Second

// Stop sends SIGTERM to the process group, then SIGKILL if it lingers.
func (p *Proc) Stop() {
	if p.Exited() {
		return
	}
	terminateGroup(p.Cmd)
	select {
	case <-p.done:
	case <-time.After(stopGrace):
		killGroup(p.Cmd)
		<-p.done
	}
}

func (p *Proc) Exited() bool { return p.exited.Load() }

// FailIfExited fails the test at once when the process has exited: a wait for
// what it should answer would only time out.
func (p *Proc) FailIfExited(t testing.TB) {
	t.Helper()
	if p.Exited() {
		t.Fatalf("%s exited: %v\n%s", p.Name, p.Err, p.Tail(3000))
	}
}

func (p *Proc) Tail(n int) string {
	b, _ := os.ReadFile(p.log)
	return string(b[max(0, len(b)-n):])
}

// FreePort returns a loopback port that was free a moment ago ("tcp" or "udp").
func FreePort(t testing.TB, network string) int {
	t.Helper()
	if network == "udp" {
		pc, err := net.ListenPacket("udp", "127.0.0.1:0")
		must(t, err)
		defer pc.Close()
		return pc.LocalAddr().(*net.UDPAddr).Port
	}
	l, err := net.Listen("tcp", "127.0.0.1:0")
	must(t, err)
	defer l.Close()
	return l.Addr().(*net.TCPAddr).Port
}

// FreeAddr is 127.0.0.1:FreePort(t, "tcp").
func FreeAddr(t testing.TB) string {
	t.Helper()
	return net.JoinHostPort("127.0.0.1", strconv.Itoa(FreePort(t, "tcp")))
}

// WaitFor polls cond until it holds or timeout passes; cond returns whether it
// holds and what it saw, reported on timeout. Timeouts are generous (the machine
// may be loaded); the poll returns as soon as cond holds.
func WaitFor(t testing.TB, timeout time.Duration, what string, cond func() (bool, string)) string {
	t.Helper()
	return WaitEvery(t, 250*time.Millisecond, timeout, what, cond)
}

// WaitEvery is WaitFor polling at most once per interval.
func WaitEvery(t testing.TB, interval, timeout time.Duration, what string, cond func() (bool, string)) string {
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

// RunTool runs a command in dir with a timeout and returns its combined output.
func RunTool(timeout time.Duration, dir string, argv ...string) (string, error) {
	cmd := exec.Command(argv[0], argv[1:]...)
	cmd.Dir = dir
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	ownGroup(cmd) // a timeout kills what it started too, which may hold the output open
	if err := cmd.Start(); err != nil {
		return "", err
	}
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	select {
	case err := <-done:
		return out.String(), err
	case <-time.After(timeout):
		killGroup(cmd)
		<-done
		return out.String(), errors.New(strings.Join(argv, " ") + ": timed out after " + timeout.String())
	}
}

// LookTool returns the path of an external tool, or skips the test saying which
// Debian package has it.
func LookTool(t testing.TB, name, pkg string) string {
	t.Helper()
	p, err := exec.LookPath(name)
	if err != nil {
		t.Skipf("%s is not installed (Debian package %s): skipping; `make test` installs it as root", name, pkg)
	}
	return p
}

// must fails the test on an error that setting it up should not meet.
func must(t testing.TB, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}
