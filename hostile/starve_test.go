package hostile

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"
)

// runDelays reads, per thread of this process, the time it spent runnable but
// waiting for a CPU (the second field of /proc/self/task/TID/schedstat, in ns).
// nil where the kernel does not offer it (not Linux, no CONFIG_SCHED_INFO).
func runDelays() map[string]int64 {
	paths, _ := filepath.Glob("/proc/self/task/*/schedstat")
	if len(paths) == 0 {
		return nil
	}
	out := make(map[string]int64, len(paths))
	for _, p := range paths {
		b, err := os.ReadFile(p)
		if err != nil {
			continue // the thread exited
		}
		f := strings.Fields(string(b))
		if len(f) < 2 {
			continue
		}
		if ns, err := strconv.ParseInt(f[1], 10, 64); err == nil {
			out[filepath.Base(filepath.Dir(p))] = ns
		}
	}
	return out
}

// starvation measures how long the kernel kept this process's threads off the
// CPUs while they were ready to run, from now until the returned func is called:
// the sum over threads of their run-queue wait. Other jobs saturating the host
// (not this process) cause it; a CPU-bound probe (a decompression bomb) is late by
// about as much, which a timer armed beside it does not show (a waking timer is
// favoured by the scheduler over a thread that has used its share). The sum is an
// upper bound of what one probe lost (several threads may wait at once), about 0
// on an idle host, so a probe late by its own fault still fails there.
func starvation() func() time.Duration {
	before := runDelays()
	return func() time.Duration {
		var d int64
		for tid, ns := range runDelays() {
			d += ns - before[tid] // a thread born meanwhile counts from 0
		}
		return time.Duration(max(d, 0))
	}
}
