package prototest

import (
	"sync/atomic"
	"testing"
	"time"
)

// lagTick is how often SchedulingLag's goroutine asks to run.
const lagTick = 5 * time.Millisecond

// SchedulingLag measures, until the test ends, how long this process wanted to run
// and could not: a goroutine asks to wake every 5 ms and adds up how late it woke.
// On a busy machine (other processes on every core, a stopped process, a slow VM)
// a deadline passes later than asked by about this much, and so does everything a
// test times. A test that checks "returned within the deadline + ε" allows ε plus
// the lag read at the check, so it judges the code against what the machine could
// schedule, not against the wall clock alone.
func SchedulingLag(t testing.TB) func() time.Duration {
	var total atomic.Int64
	done := make(chan struct{})
	go func() {
		timer := time.NewTimer(lagTick)
		defer timer.Stop()
		want := time.Now().Add(lagTick)
		for {
			select {
			case <-done:
				return
			case <-timer.C:
				// time.Now, not the value received: that is when the timer was
				// due, however late it ran.
				if late := time.Since(want); late > lagTick {
					total.Add(int64(late - lagTick)) // a tick of jitter is not lag
				}
				want = time.Now().Add(lagTick)
				timer.Reset(lagTick)
			}
		}
	}()
	t.Cleanup(func() { close(done) })
	return func() time.Duration { return time.Duration(total.Load()) }
}
