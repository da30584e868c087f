package config

import (
	"sync/atomic"
)

// SafeConfig holds the config in force. Reload validates a whole new config before
// swapping it in, so a bad file leaves the old one serving.
type SafeConfig struct {
	path string
	cur  atomic.Pointer[Config]
}

// NewSafeConfig returns a SafeConfig for the file at path ("" = built-ins only).
func NewSafeConfig(path string) *SafeConfig { return &SafeConfig{path: path} }

// Get returns the config in force (never nil after a successful first Reload).
func (s *SafeConfig) Get() *Config { return s.cur.Load() }

// Reload reads and validates the file, and swaps it in on success.
func (s *SafeConfig) Reload() error {
	c, err := Load(s.path)
	if err != nil {
		return err
	}
	s.cur.Store(c)
	return nil
}

// Set swaps in an already validated config.
func (s *SafeConfig) Set(c *Config) { s.cur.Store(c) }
