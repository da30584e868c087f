package config

import (
	"context"
	"errors"
	"fmt"
	"sync/atomic"
	"time"
)

// ReloadTimeout bounds a reload: reading and validating the modules file and
// every file it names. A reload that takes longer fails and lets go of the reload
// lock; the config in force stays.
const ReloadTimeout = 10 * time.Second

// maxStalledLoads bounds the loads still running after their reload gave up on them
// (a file on a hung network mount): past it a reload fails at once instead of
// leaving one more goroutine and descriptor behind.
const maxStalledLoads = 4

// SafeConfig holds the config in force. Reload validates a whole new config before
// swapping it in, so a bad file leaves the old one serving.
type SafeConfig struct {
	path string
	cur  atomic.Pointer[Config]
	// turn serialises reloads: SIGHUP and POST /-/reload arrive on different
	// goroutines, and an older file read slowly must not be stored after a newer.
	// A channel rather than a mutex, so a reload can stop waiting for its turn.
	turn    chan struct{}
	loading atomic.Int32                  // loads running, stalled ones included
	load    func(string) (*Config, error) // Load; tests slow it down
	timeout time.Duration                 // ReloadTimeout; tests shorten it
}

// NewSafeConfig returns a SafeConfig for the file at path ("" = built-ins only).
func NewSafeConfig(path string) *SafeConfig {
	return &SafeConfig{path: path, turn: make(chan struct{}, 1), timeout: ReloadTimeout}
}

// Get returns the config in force (never nil after a successful first Reload).
func (s *SafeConfig) Get() *Config { return s.cur.Load() }

// Reload reads and validates the file, and swaps it in on success, within
// ReloadTimeout.
func (s *SafeConfig) Reload() error { return s.ReloadContext(context.Background()) }

// ErrReloadTimeout is a reload that did not finish within ReloadTimeout.
var ErrReloadTimeout = errors.New("reload did not finish in time")

// ReloadContext is Reload that also gives up when ctx ends (the HTTP client that
// asked for it left). Giving up never stores a config: the load still running is
// abandoned, and whatever it returns is dropped.
func (s *SafeConfig) ReloadContext(ctx context.Context) error {
	ctx, cancel := context.WithTimeoutCause(ctx, s.timeout, fmt.Errorf("%w (%s): is a file it reads a FIFO, a device or on a hung mount?", ErrReloadTimeout, s.timeout))
	defer cancel()
	select {
	case s.turn <- struct{}{}:
	case <-ctx.Done():
		return fmt.Errorf("waiting for another reload: %w", context.Cause(ctx))
	}
	defer func() { <-s.turn }()
	if s.loading.Load() >= maxStalledLoads {
		return fmt.Errorf("%d earlier loads of the config have not returned: not starting another", maxStalledLoads)
	}
	load := s.load
	if load == nil {
		load = Load
	}
	type loaded struct {
		c   *Config
		err error
	}
	done := make(chan loaded, 1) // buffered: an abandoned load still finishes
	s.loading.Add(1)
	go func() {
		defer s.loading.Add(-1)
		c, err := load(s.path)
		done <- loaded{c, err}
	}()
	select {
	case l := <-done:
		if l.err != nil {
			return l.err
		}
		s.cur.Store(l.c)
		return nil
	case <-ctx.Done():
		return context.Cause(ctx)
	}
}

// Set swaps in an already validated config.
func (s *SafeConfig) Set(c *Config) { s.cur.Store(c) }
