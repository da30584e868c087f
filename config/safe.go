package config

import (
	"sync"
	"sync/atomic"
)

// SafeConfig holds the config in force. Reload validates a whole new config before
// swapping it in, so a bad file leaves the old one serving.
type SafeConfig struct {
	path string
	cur  atomic.Pointer[Config]
	// reloading serialises Reload: SIGHUP and POST /-/reload arrive on different
	// goroutines, and an older file read slowly must not be stored after a newer.
	reloading sync.Mutex
	load      func(string) (*Config, error) // Load; tests slow it down
}

// NewSafeConfig returns a SafeConfig for the file at path ("" = built-ins only).
func NewSafeConfig(path string) *SafeConfig { return &SafeConfig{path: path} }

// Get returns the config in force (never nil after a successful first Reload).
func (s *SafeConfig) Get() *Config { return s.cur.Load() }

// Reload reads and validates the file, and swaps it in on success.
func (s *SafeConfig) Reload() error {
	s.reloading.Lock()
	defer s.reloading.Unlock()
	load := s.load
	if load == nil {
		load = Load
	}
	c, err := load(s.path)
	if err != nil {
		return err
	}
	s.cur.Store(c)
	return nil
}

// Set swaps in an already validated config.
func (s *SafeConfig) Set(c *Config) { s.cur.Store(c) }
