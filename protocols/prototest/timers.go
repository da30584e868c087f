package prototest

import (
	"sync"
	"time"
)

// GrowTimerHeaps blocks n goroutines on timers at once, so that the runtime's
// per-P timer heaps have room for n timers from then on (they never shrink). A
// goroutine that blocks on a timer when its P's heap is full grows the heap on
// its own stack, about 1 KiB deeper than the wait itself; a test of how deep a
// waiting goroutine's stack is measures the steady state after this, as a
// long-running exporter's is.
func GrowTimerHeaps(n int) {
	var wg sync.WaitGroup
	start := make(chan struct{})
	for range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			<-start
			<-time.NewTimer(20 * time.Millisecond).C
		}()
	}
	close(start)
	wg.Wait()
}
