package config

import (
	"context"
	"errors"
	"fmt"
	"os"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/gameserver-exporter/gameserver_exporter/internal/testenv"
)

// TestReloadSerialised: a reload that read the older file slowly must not be
// stored after a later reload of the newer file (SIGHUP and POST /-/reload race).
func TestReloadSerialised(t *testing.T) {
	old, cur := &Config{ID: 1}, &Config{ID: 2}
	release := make(chan struct{})
	var calls atomic.Int32
	s := NewSafeConfig("x")
	s.load = func(string) (*Config, error) {
		if calls.Add(1) == 1 {
			<-release // the first reload reads the old file, slowly
			return old, nil
		}
		return cur, nil
	}
	var wg sync.WaitGroup
	wg.Go(func() { s.Reload() })
	testenv.WaitEvery(t, time.Millisecond, 10*time.Second, "the first reload", func() (bool, string) { return calls.Load() == 1, "" })
	wg.Go(func() { s.Reload() })
	time.Sleep(50 * time.Millisecond) // let the second reload run, or wait its turn
	close(release)
	wg.Wait()
	if got := s.Get(); got != cur {
		t.Errorf("config in force is #%d, want the newest #%d", got.ID, cur.ID)
	}
}

// TestReloadDeadline: a load that never returns (a FIFO, a hung mount) fails its
// reload within the deadline and lets go of the reload lock, so the next reload of
// a fixed file works; stalled loads are bounded (hostile round, row 2: a FIFO held
// the lock forever and every POST kept a goroutine and a descriptor).
func TestReloadDeadline(t *testing.T) {
	stuck := make(chan struct{})
	defer close(stuck)
	fixed := &Config{ID: 7}
	var broken atomic.Bool
	broken.Store(true)
	s := NewSafeConfig("x")
	s.timeout = 50 * time.Millisecond
	s.load = func(string) (*Config, error) {
		if broken.Load() {
			<-stuck
			return &Config{ID: 666}, nil
		}
		return fixed, nil
	}
	for i := range maxStalledLoads + 2 {
		err := s.Reload()
		if err == nil {
			t.Fatalf("reload %d of a file that never reads succeeded", i)
		}
		if i < maxStalledLoads && !errors.Is(err, ErrReloadTimeout) {
			t.Errorf("reload %d: %v, want a timeout", i, err)
		}
		if i >= maxStalledLoads && !strings.Contains(err.Error(), "have not returned") {
			t.Errorf("reload %d past the stalled loads' bound: %v", i, err)
		}
	}
	if n := s.loading.Load(); n != maxStalledLoads {
		t.Errorf("%d loads running, want them bounded at %d", n, maxStalledLoads)
	}
	if s.Get() != nil {
		t.Errorf("a timed-out load stored config #%d", s.Get().ID)
	}
	broken.Store(false)
	// The bound is on loads still running: once they return, reloads work again.
	s.timeout = 5 * time.Second
	stuck <- struct{}{} // one stalled load returns (its result is dropped)
	testenv.WaitEvery(t, time.Millisecond, 10*time.Second, "the stalled load to return", func() (bool, string) {
		return s.loading.Load() < maxStalledLoads, fmt.Sprint(s.loading.Load(), " loads running")
	})
	if err := s.Reload(); err != nil || s.Get() != fixed {
		t.Fatalf("reload after the fix: %v, config %v", err, s.Get())
	}
}

// TestReloadClientLeaves: a reload whose caller's context ends returns at once.
func TestReloadClientLeaves(t *testing.T) {
	stuck := make(chan struct{})
	defer close(stuck)
	s := NewSafeConfig("x")
	s.load = func(string) (*Config, error) { <-stuck; return nil, nil }
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- s.ReloadContext(ctx) }()
	cancel()
	if err := <-done; !errors.Is(err, context.Canceled) {
		t.Errorf("reload after the client left: %v", err)
	}
}

// TestLoadRefusesDevices: the modules file is read as any file the config names:
// a device is refused at once, not read without end.
func TestLoadRefusesDevices(t *testing.T) {
	if _, err := os.Stat("/dev/zero"); err != nil {
		t.Skip("no /dev/zero here")
	}
	if _, err := Load("/dev/zero"); err == nil {
		t.Error("loaded /dev/zero as a modules file")
	}
}
