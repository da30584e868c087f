//go:build unix

package prototest

import (
	"os"
	"os/exec"
	"strconv"
	"syscall"
	"testing"
	"time"
)

// TestSchedulingLagCountsAStop stops the process for 300 ms (SIGSTOP; a shell
// sends SIGCONT), as an overloaded machine would deschedule it: the lag read
// afterwards covers most of the stop, and an idle stretch adds little.
func TestSchedulingLagCountsAStop(t *testing.T) {
	lag := SchedulingLag(t)
	if _, err := exec.LookPath("sh"); err != nil {
		t.Skip("no sh")
	}
	cont := exec.Command("sh", "-c", "sleep 0.3; kill -CONT "+strconv.Itoa(os.Getpid()))
	if err := cont.Start(); err != nil {
		t.Fatal(err)
	}
	before := lag()
	start := time.Now()
	syscall.Kill(os.Getpid(), syscall.SIGSTOP)
	cont.Wait()
	stopped := time.Since(start)
	// The ticker goroutine runs once after the stop before the lag shows it.
	deadline := time.Now().Add(10 * time.Second)
	for lag()-before < stopped/2 && time.Now().Before(deadline) {
		time.Sleep(lagTick)
	}
	if got := lag() - before; got < stopped/2 || got > stopped+time.Second {
		t.Errorf("stopped %s, lag grew by %s (from %s)", stopped, got, before)
	}
}
