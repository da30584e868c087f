package collector

import (
	"context"
	"errors"
	"runtime"
	"testing"
	"time"
)

type ctxKey struct{}

// TestProbeCtx: a probe's context behaves as context.WithDeadline over a detached
// base, with or without anyone asking for Done.
func TestProbeCtx(t *testing.T) {
	base, cancelBase := context.WithCancel(context.WithValue(context.Background(), ctxKey{}, "v"))
	cancelBase() // the scraper left: the probe goes on

	t.Run("before the deadline", func(t *testing.T) {
		c, cancel := newProbeCtx(base, time.Now().Add(time.Hour))
		defer cancel()
		if c.Err() != nil || c.Value(ctxKey{}) != "v" {
			t.Fatalf("Err %v, Value %v", c.Err(), c.Value(ctxKey{}))
		}
		if d, ok := c.Deadline(); !ok || time.Until(d) < 59*time.Minute {
			t.Fatalf("Deadline %v %v", d, ok)
		}
		select {
		case <-c.Done():
			t.Fatal("done an hour early")
		default:
		}
	})
	t.Run("past the deadline", func(t *testing.T) {
		c, cancel := newProbeCtx(base, time.Now().Add(20*time.Millisecond))
		defer cancel()
		<-c.Done() // made after the start: closes when the deadline passes
		if !errors.Is(c.Err(), context.DeadlineExceeded) {
			t.Fatalf("Err %v", c.Err())
		}
		c2, cancel2 := newProbeCtx(base, time.Now().Add(-time.Second))
		defer cancel2()
		if !errors.Is(c2.Err(), context.DeadlineExceeded) { // no Done asked for
			t.Fatalf("Err %v", c2.Err())
		}
	})
	t.Run("cancelled", func(t *testing.T) {
		for _, doneFirst := range []bool{false, true} {
			c, cancel := newProbeCtx(base, time.Now().Add(time.Hour))
			if doneFirst {
				c.Done()
			}
			cancel()
			cancel()
			<-c.Done()
			if !errors.Is(c.Err(), context.Canceled) {
				t.Fatalf("done first %v: Err %v", doneFirst, c.Err())
			}
		}
	})
	t.Run("children", func(t *testing.T) {
		c, cancel := newProbeCtx(base, time.Now().Add(time.Hour))
		before := runtime.NumGoroutine()
		var children []context.Context
		for range 50 {
			child, stop := context.WithTimeout(c, time.Hour)
			defer stop()
			children = append(children, child)
		}
		// A parent the context package does not know costs a goroutine per child.
		if n := runtime.NumGoroutine() - before; n > 5 {
			t.Fatalf("%d goroutines for 50 children", n)
		}
		if children[0].Value(ctxKey{}) != "v" {
			t.Fatal("a child lost the base's values")
		}
		cancel()
		for _, child := range children {
			<-child.Done()
		}
	})
}
