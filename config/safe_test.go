package config

import (
	"sync"
	"testing"
	"time"
)

// TestReloadSerialised: a reload that read the older file slowly must not be
// stored after a later reload of the newer file (SIGHUP and POST /-/reload race).
func TestReloadSerialised(t *testing.T) {
	old, cur := &Config{ID: 1}, &Config{ID: 2}
	release := make(chan struct{})
	calls := 0
	var mu sync.Mutex
	s := NewSafeConfig("x")
	s.load = func(string) (*Config, error) {
		mu.Lock()
		calls++
		first := calls == 1
		mu.Unlock()
		if first {
			<-release // the first reload reads the old file, slowly
			return old, nil
		}
		return cur, nil
	}
	var wg sync.WaitGroup
	wg.Add(2)
	go func() { defer wg.Done(); s.Reload() }()
	for { // the first reload is under way
		mu.Lock()
		n := calls
		mu.Unlock()
		if n == 1 {
			break
		}
		time.Sleep(time.Millisecond)
	}
	go func() { defer wg.Done(); s.Reload() }()
	time.Sleep(50 * time.Millisecond) // let the second reload run, or wait its turn
	close(release)
	wg.Wait()
	if got := s.Get(); got != cur {
		t.Errorf("config in force is #%d, want the newest #%d", got.ID, cur.ID)
	}
}
