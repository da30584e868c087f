package prototest

import (
	"sync"
	"testing"
	"time"
)

// lagTick is how often the lag meter's goroutine asks to run.
const lagTick = 5 * time.Millisecond

// SchedulingLag measures, from now on, how long this process wanted to run and
// could not (LagSince the call: one process-wide goroutine asks to wake every 5 ms
// and keeps how late it woke).
// On a busy machine (other processes on every core, a stopped process, a slow VM)
// a deadline passes later than asked by about this much, and so does everything a
// test times. A test that checks "returned within the deadline + ε" allows ε plus
// the lag read at the check, so it judges the code against what the machine could
// schedule, not against the wall clock alone.
func SchedulingLag(testing.TB) func() time.Duration {
	startLagMeter()
	start := time.Now()
	return func() time.Duration { return LagSince(start) }
}

// The process-wide lag meter behind LagSince: one goroutine per test binary that
// imports prototest, asking to wake every lagTick, keeping how late each wake was
// for the last lagWindow.
const lagWindow = 2 * time.Minute

var lagMeter = struct {
	sync.Mutex
	once  sync.Once
	at    []time.Time     // when each late wake happened, oldest first
	late  []time.Duration // how late it was
	total time.Duration
}{}

func startLagMeter() {
	lagMeter.once.Do(func() {
		go func() {
			want := time.Now().Add(lagTick)
			for {
				time.Sleep(time.Until(want))
				now := time.Now()
				if late := now.Sub(want); late > lagTick {
					lagMeter.Lock()
					lagMeter.at = append(lagMeter.at, now)
					lagMeter.late = append(lagMeter.late, late-lagTick)
					for len(lagMeter.at) > 0 && now.Sub(lagMeter.at[0]) > lagWindow {
						lagMeter.at, lagMeter.late = lagMeter.at[1:], lagMeter.late[1:]
					}
					lagMeter.Unlock()
				}
				want = now.Add(lagTick)
			}
		}()
	})
}

func init() {
	if testing.Testing() {
		startLagMeter()
	}
}

// LagSince is how long this process could not run since start (up to two minutes
// back): what a "returned by the deadline + ε" check started at start allows on
// top of ε, so that a busy machine (other processes on both cores, -race) does not
// fail a deadline the code kept. It is 0 on an idle machine.
func LagSince(start time.Time) time.Duration {
	lagMeter.Lock()
	defer lagMeter.Unlock()
	var sum time.Duration
	for i := len(lagMeter.at) - 1; i >= 0 && lagMeter.at[i].After(start); i-- {
		sum += lagMeter.late[i]
	}
	return sum
}
