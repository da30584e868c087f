//go:build !race

// The race detector's instrumentation changes every frame's size: this test is for
// the binary users run.

package collector

import (
	"context"
	"net"
	"os"
	"os/exec"
	"runtime"
	"runtime/debug"
	"strings"
	"sync"
	"testing"

	"github.com/gameserver-exporter/gameserver_exporter/config/configtest"
	"github.com/gameserver-exporter/gameserver_exporter/protocols/prototest"
)

// TestProbeWaitFitsSmallStack: a probe waiting for a silent server (module a2s, an
// address target) runs in a 4 KiB goroutine stack, not 8 (runner.go says why). A
// child process sets the runtime's stack limit to 4 KiB and runs such probes: a
// goroutine that needs more ends it with "stack exceeds 4096-byte limit" and the
// stack that needed it.
func TestProbeWaitFitsSmallStack(t *testing.T) {
	if os.Getenv("GSE_STACK_CHILD") == "1" {
		stackChild(t)
		return
	}
	cmd := exec.Command(os.Args[0], "-test.run=^TestProbeWaitFitsSmallStack$", "-test.v")
	cmd.Env = append(os.Environ(), "GSE_STACK_CHILD=1")
	out, err := cmd.CombinedOutput()
	if err != nil || !strings.Contains(string(out), "--- PASS") {
		t.Fatalf("the probes did not fit 4 KiB stacks (%v):\n%s", err, out)
	}
}

// httpFrames stands for the frames below Runner.Run of a waiting /probe request:
// web's FastListener.serve, answer and ProbeHandler.probe, 344 bytes with go1.26
// (a parked probe's are fewer). The whole wait has about 60 bytes to spare in
// 4 KiB: web's TestFastWaitFitsSmallStack runs the real frames.
//
//go:noinline
func httpFrames(run func()) {
	var pad [352]byte
	touch(pad[:]) // the frame keeps pad: constant indexes alone let the compiler drop it
	run()
}

//go:noinline
func touch(b []byte) { b[len(b)-1] = 1 }

func stackChild(t *testing.T) {
	// One P, whose timer heap GrowTimerHeaps then grows for certain: with more,
	// a busy machine may run every warming goroutine on one of them.
	runtime.GOMAXPROCS(1)
	silent, err := net.ListenPacket("udp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer silent.Close()
	cfg := configtest.Modules(t, "")
	r := newTestRunner(t, nil, nil)
	r.Config.Set(cfg)
	target := silent.LocalAddr().String()
	probe := func() {
		o, err := r.Run(context.Background(), "a2s", target, "0.6")
		if err != nil || o.Reason() != "timeout" {
			t.Errorf("probe of a silent server: %v, %+v", err, o)
		}
	}
	probe()                       // the shared socket's reader starts (and grows its stack) here
	prototest.GrowTimerHeaps(512) // on the one P (stackChild)
	debug.SetMaxStack(4096)
	var wg sync.WaitGroup
	for range 20 {
		wg.Go(func() { httpFrames(probe) })
	}
	wg.Wait()
	debug.SetMaxStack(1 << 30)
}
