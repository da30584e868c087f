package testenv

import (
	"fmt"
	"strings"
	"testing"
	"time"
)

func TestProc(t *testing.T) {
	p := StartProc(t, "echo", t.TempDir(), []string{"WORD=logged"}, "sh", "-c", "echo $WORD; sleep 30")
	WaitFor(t, 10*time.Second, "the output", func() (bool, string) { return p.Tail(4) == "ged\n", p.Tail(100) })
	if p.Exited() {
		t.Fatal("exited while sleeping")
	}
	p.FailIfExited(t)
	p.Stop()
	if !p.Exited() || p.Err == nil {
		t.Errorf("after Stop: exited %v, err %v", p.Exited(), p.Err)
	}
	p.Stop() // a second time: nothing to do
	wantFail(t, "echo exited", p.FailIfExited)

	// A process that ignores SIGTERM is killed after the grace period.
	defer func(g time.Duration) { stopGrace = g }(stopGrace)
	stopGrace = 100 * time.Millisecond
	deaf := StartProc(t, "deaf", "", nil, "sh", "-c", `trap "" TERM; echo ready; sleep 30`)
	WaitFor(t, 10*time.Second, "the trap", func() (bool, string) { return deaf.Tail(10) == "ready\n", "" })
	deaf.Stop()
	if !strings.Contains(deaf.Err.Error(), "killed") {
		t.Errorf("ignoring SIGTERM: %v, want killed", deaf.Err)
	}

	wantFail(t, "no such file", func(tb testing.TB) { StartProc(tb, "no/dir", "", nil, "true") })
	wantFail(t, "start missing", func(tb testing.TB) { StartProc(tb, "missing", "", nil, "/nonexistent/binary") })
}

func TestWaitFor(t *testing.T) {
	n := 0
	if got := WaitEvery(t, time.Millisecond, time.Minute, "the third poll", func() (bool, string) { n++; return n == 3, "three" }); got != "three" || n != 3 {
		t.Errorf("WaitEvery: %q after %d polls", got, n)
	}
	wantFail(t, "waiting for never; last seen: not yet", func(tb testing.TB) {
		WaitFor(tb, time.Millisecond, "never", func() (bool, string) { return false, "not yet" })
	})
}

func TestRunTool(t *testing.T) {
	if out, err := RunTool(time.Minute, t.TempDir(), "sh", "-c", "echo out; echo err >&2"); err != nil || out != "out\nerr\n" {
		t.Errorf("RunTool: %q %v", out, err)
	}
	if _, err := RunTool(time.Minute, "", "/nonexistent/binary"); err == nil {
		t.Error("a missing binary ran")
	}
	if out, err := RunTool(50*time.Millisecond, "", "sh", "-c", "echo started; sleep 30"); err == nil || !strings.Contains(err.Error(), "timed out") || out != "started\n" {
		t.Errorf("RunTool past its timeout: %q %v", out, err)
	}
}

func TestLookToolAndPorts(t *testing.T) {
	if p := LookTool(t, "sh", "dash"); !strings.HasSuffix(p, "/sh") {
		t.Errorf("LookTool(sh) = %q", p)
	}
	wantFail(t, "skip: no-such-tool is not installed (Debian package pkg)", func(tb testing.TB) { LookTool(tb, "no-such-tool", "pkg") })
	if FreePort(t, "udp") == 0 || FreePort(t, "tcp") == 0 || !strings.HasPrefix(FreeAddr(t), "127.0.0.1:") {
		t.Error("no free port")
	}
}

// failedTB is a failed test: its cleanups run when the test says, its log is kept.
type failedTB struct {
	fakeTB
	cleanups []func()
	logged   string
}

func (f *failedTB) Failed() bool                    { return true }
func (f *failedTB) Cleanup(c func())                { f.cleanups = append(f.cleanups, c) }
func (f *failedTB) Logf(format string, args ...any) { f.logged += fmt.Sprintf(format, args...) }

// TestProcLogOnFailure: a failed test's log shows the tail of what its process said.
func TestProcLogOnFailure(t *testing.T) {
	tb := &failedTB{fakeTB: fakeTB{TB: t}}
	p := StartProc(tb, "said", "", nil, "sh", "-c", "echo last words")
	WaitFor(t, 10*time.Second, "sh to exit", func() (bool, string) { return p.Exited(), "" })
	for _, c := range tb.cleanups {
		c()
	}
	if !strings.Contains(tb.logged, "--- said log (tail) ---\nlast words\n") {
		t.Errorf("logged %q", tb.logged)
	}
}
