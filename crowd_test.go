package main

import (
	"bufio"
	"fmt"
	"io"
	"net/http"
	"os"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/gameserver-exporter/gameserver_exporter/internal/testenv"
)

// TestCrowdOfCallers: 2,000 concurrent callers of each page hold the exporter
// under 128 MB and leave /-/healthy answering (hostile round, row 3: 2,000 /config
// callers took 945 MB, and /-/healthy past 3 s). A load test: its peak RSS is the
// exporter's own only when no parallel test binaries starve its collector (223 MiB
// once in CI beside the -race builds; 94-98 MiB alone and beside CPU hogs).
func TestCrowdOfCallers(t *testing.T) {
	testenv.LoadTest(t)
	if runtime.GOOS != "linux" {
		t.Skip("reads the exporter's peak RSS from /proc")
	}
	if testing.Short() {
		t.Skip("-short: 10,000 requests")
	}
	e := startExporter(t)
	const callers = 2000
	client := &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: callers, MaxConnsPerHost: callers}, Timeout: 2 * time.Minute}
	for _, path := range []string{"/config", "/", "/modules", "/logs?id=1", "/metrics"} {
		var wg sync.WaitGroup
		var mu sync.Mutex
		codes := map[int]int{}
		var firstErr error // why a caller got no answer, for the log
		start := make(chan struct{})
		for range callers {
			wg.Add(1)
			go func() {
				defer wg.Done()
				<-start
				resp, err := client.Get(e.Base + path)
				code := -1
				if err == nil {
					io.Copy(io.Discard, resp.Body)
					resp.Body.Close()
					code = resp.StatusCode
				}
				mu.Lock()
				codes[code]++
				if err != nil && firstErr == nil {
					firstErr = err
				}
				mu.Unlock()
			}()
		}
		close(start)
		// The fastest of a few health checks during the crowd: if even that one
		// takes a second, the exporter is starved, not merely the machine busy.
		fastest := time.Hour
		for range 5 {
			t0 := time.Now()
			if resp, err := http.Get(e.Base + "/-/healthy"); err == nil {
				resp.Body.Close()
				fastest = min(fastest, time.Since(t0))
			}
		}
		wg.Wait()
		if fastest > time.Second {
			t.Errorf("%s: /-/healthy took at least %s during the crowd", path, fastest)
		}
		if codes[-1] > 0 || codes[500] > 0 {
			t.Errorf("%s: answers by status %v (-1: no answer: %v)", path, codes, firstErr)
		}
		t.Logf("%s: %v, healthy in %s", path, codes, fastest)
	}
	if hwm := peakRSS(t, e.Cmd.Process.Pid); hwm > 128<<20 {
		t.Errorf("peak RSS %d MiB, want under 128", hwm>>20)
	} else {
		t.Logf("peak RSS %d MiB", hwm>>20)
	}
}

// peakRSS is VmHWM of process pid, in bytes.
func peakRSS(t *testing.T, pid int) int64 {
	t.Helper()
	f, err := os.Open(fmt.Sprintf("/proc/%d/status", pid))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		if v, ok := strings.CutPrefix(sc.Text(), "VmHWM:"); ok {
			kb, _ := strconv.ParseInt(strings.TrimSuffix(strings.TrimSpace(v), " kB"), 10, 64)
			return kb << 10
		}
	}
	t.Fatal("no VmHWM")
	return 0
}
