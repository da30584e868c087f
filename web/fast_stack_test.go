//go:build !race

// The race detector's instrumentation changes every frame's size: this test is for
// the binary users run.

package web

import (
	"net"
	"os"
	"os/exec"
	"runtime"
	"runtime/debug"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/gameserver-exporter/gameserver_exporter/protocols/prototest"
)

// TestFastWaitFitsSmallStack: a scrape of a silent server the fast path answers
// waits in a 4 KiB goroutine stack (collector's TestProbeWaitFitsSmallStack: the
// probe alone): a child process sets the stack limit once the exporter is warm.
func TestFastWaitFitsSmallStack(t *testing.T) {
	if os.Getenv("GSE_STACK_CHILD") != "1" {
		cmd := exec.Command(os.Args[0], "-test.run=^TestFastWaitFitsSmallStack$", "-test.v")
		cmd.Env = append(os.Environ(), "GSE_STACK_CHILD=1")
		out, err := cmd.CombinedOutput()
		if err != nil || !strings.Contains(string(out), "--- PASS") {
			t.Fatalf("the waiting scrapes did not fit 4 KiB stacks (%v):\n%s", err, out)
		}
		return
	}
	// One P, whose timer heap GrowTimerHeaps then grows for certain: with more,
	// a busy machine may run every warming goroutine on one of them.
	runtime.GOMAXPROCS(1)
	silent, _ := net.ListenPacket("udp", "127.0.0.1:0")
	defer silent.Close()
	h := newTestHandler(t, nil, nil)
	h.Runner.Config = builtins(t)
	_, addr, _ := fastServer(t, h)
	req := "GET /probe?module=a2s&target=" + silent.LocalAddr().String() + " HTTP/1.1\r\nHost: x\r\nX-Prometheus-Scrape-Timeout-Seconds: 1.1\r\n\r\n"
	c, br := dial(t, addr)
	roundTrip(t, c, br, req) // the shared socket's reader starts (and grows its stack) here
	time.Sleep(100 * time.Millisecond)
	// Dialled before the limit: the client's side is not under test.
	var conns []net.Conn
	for range 10 {
		c, _ := net.Dial("tcp", addr)
		conns = append(conns, c)
	}
	buf := make([][]byte, 10)
	for i := range buf {
		buf[i] = make([]byte, 64<<10)
	}
	prototest.GrowTimerHeaps(512)
	debug.SetMaxStack(4096)
	var wg sync.WaitGroup
	for i, c := range conns {
		wg.Go(func() {
			c.Write([]byte(strings.Replace(req, "\r\n\r\n", "\r\nConnection: close\r\n\r\n", 1)))
			for {
				if _, err := c.Read(buf[i]); err != nil {
					return
				}
			}
		})
	}
	wg.Wait()
	debug.SetMaxStack(1 << 30)
}
