// Package gcheadroom tunes the garbage collector's percentage after each collection
// so that a small heap is not collected every few hundred probes.
package gcheadroom

import (
	"log/slog"
	"os"
	"runtime"
	"runtime/debug"
	"runtime/metrics"
	"sync/atomic"
)

// A probe allocates a few kilobytes and keeps almost nothing, so the live heap of a
// busy exporter stays at a few megabytes. With GOGC=100 the heap goal is twice that,
// and the collector runs every few hundred probes: at thousands of probes a second its
// fixed cost per cycle is a fifth of the CPU (BENCHMARKS.md). gcHeadroom sets the GC
// percentage after each collection so that the heap may grow by the larger of
// headroom and a quarter of the live heap between two collections. A quarter, not
// all of it as GOGC=100 allows: a large live heap means thousands of probes
// waiting, which allocate little (a collection every second or two while 10,000
// arrive), and whose memory is what a container limit must hold. The
// runtime's goal for a percentage p is live + (live + stacks + globals) * p/100: the
// GC's roots count too, and thousands of waiting probes have as much stack as heap,
// so the percentage is computed on them all. An explicit GOGC in the environment wins.

// maxGCPercent bounds the percentage when the live heap is nearly empty; minGCPercent
// when the roots dwarf it (each collection scans the stacks: not more often than that).
const (
	maxGCPercent = 2000
	minGCPercent = 10
)

// gcPercentFor returns the GC percentage that lets the heap grow by the larger of
// headroom and a quarter of the live heap, given the GC roots (goroutine stacks and globals)
// the runtime adds to the live heap.
func gcPercentFor(live, roots, headroom uint64) int {
	if live+roots == 0 {
		return maxGCPercent
	}
	p := max(live/4, headroom) * 100 / (live + roots)
	return int(min(max(p, minGCPercent), maxGCPercent))
}

// Start starts the tuning; it runs until stop is called (the exporter
// never does: tests do).
func Start(headroom uint64, logger *slog.Logger) (stop func()) {
	if headroom == 0 {
		return func() {}
	}
	if v, ok := os.LookupEnv("GOGC"); ok {
		logger.Info("GOGC is set: --runtime.gc-headroom does not apply", "GOGC", v)
		return func() {}
	}
	t := &gcTuner{headroom: headroom, sample: []metrics.Sample{{Name: "/gc/heap/live:bytes"}, {Name: "/gc/scan/stack:bytes"}, {Name: "/gc/scan/globals:bytes"}}, percent: 100}
	t.arm()
	return func() { t.stopped.Store(true) }
}

type gcTuner struct {
	headroom uint64
	sample   []metrics.Sample
	percent  int // only the finalizer goroutine touches it
	stopped  atomic.Bool
}

// arm sets a finalizer on a fresh object: it runs after the next collection, retunes
// and arms again, so the tuner follows every cycle without a goroutine of its own.
func (t *gcTuner) arm() {
	runtime.SetFinalizer(&gcSentinel{t}, func(s *gcSentinel) {
		if !s.t.stopped.Load() {
			s.t.tune()
			s.t.arm()
		}
	})
}

type gcSentinel struct{ t *gcTuner }

func (t *gcTuner) tune() {
	metrics.Read(t.sample)
	for _, s := range t.sample {
		if s.Value.Kind() != metrics.KindUint64 {
			return
		}
	}
	p := gcPercentFor(t.sample[0].Value.Uint64(), t.sample[1].Value.Uint64()+t.sample[2].Value.Uint64(), t.headroom)
	// Small changes are not worth a call: it takes the heap lock.
	if p != t.percent && (p > t.percent*11/10 || p < t.percent*9/10 || p == 100) {
		debug.SetGCPercent(p)
		t.percent = p
	}
}
