package discovery

import (
	"context"
	"errors"
	"fmt"
	"sort"
	"time"

	"github.com/gameserver-exporter/gameserver_exporter/config"
	"github.com/gameserver-exporter/gameserver_exporter/protocols/master"
)

// Built-in sources: the list-lookup modules of the catalog (beammp, minetest,
// ...) read a source named after a preset, which the modules file need not
// define. Such a source is started by the first probe that reads it, never at
// start-up (an exporter nobody asks about BeamMP never contacts BeamMP), and
// stops, dropping its list, after idleRefreshes refresh intervals without a
// probe; the next probe starts it again. Only presets can be started, so no
// request chooses what is fetched. A source of the same name in the modules
// file wins: it is fetched eagerly as every defined source is.

// idleRefreshes is how many refresh intervals a built-in source runs without
// a probe reading it.
const idleRefreshes = 3

// The Manager starts built-in sources for protocol list.
var _ master.Awaiter = (*Manager)(nil)

// Await starts the built-in source of a preset if the modules file defines no
// source of that name, and waits for its first fetch within ctx. It returns
// the first fetch's error when that failed and no list is held. Any other
// source returns at once.
func (m *Manager) Await(ctx context.Context, source string) error {
	if m.source(source) != nil {
		return nil
	}
	if _, ok := master.LookupPreset(source); !ok {
		return nil
	}
	r, err := m.startBuiltin(source)
	if err != nil {
		return err
	}
	select {
	case <-r.first:
	case <-ctx.Done():
		return ctx.Err()
	}
	if r.list.Load() != nil {
		return nil
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.lastErr != nil {
		return fmt.Errorf("first fetch of the built-in list failed: %w", r.lastErr)
	}
	return errors.New("the built-in list stopped before its first fetch")
}

// startBuiltin returns the running built-in source of a preset, starting it
// when it is not, and marks it read now.
func (m *Manager) startBuiltin(name string) (*running, error) {
	m.imu.Lock()
	defer m.imu.Unlock()
	r := m.builtin[name]
	if r == nil {
		build := m.Builtin
		if build == nil {
			build = func(p string) (*config.DiscoverySource, error) { return config.PresetSource(p, "") }
		}
		src, err := build(name)
		if err != nil {
			return nil, err
		}
		ctx, cancel := context.WithCancel(context.Background())
		r = &running{name: name, src: src, cancel: cancel, done: make(chan struct{}), isBuiltin: true, first: make(chan struct{})}
		m.builtin[name] = r
		m.Logger.Info("Starting a built-in list on demand", "source", name, "refresh", src.Refresh)
		go m.loop(ctx, r)
	}
	r.lastUse.Store(m.clock().UnixNano())
	return r, nil
}

// firstDone wakes the waiters of a built-in source's first fetch.
func (r *running) firstDone() {
	if r.first != nil {
		r.firstOnce.Do(func() { close(r.first) })
	}
}

// idle stops a built-in source no probe read for idleRefreshes intervals,
// dropping its list; it reports whether it did. It runs on r's own loop.
func (m *Manager) idle(r *running) bool {
	m.imu.Lock()
	unused := time.Duration(m.clock().UnixNano() - r.lastUse.Load())
	if unused <= idleRefreshes*time.Duration(r.src.Refresh) {
		m.imu.Unlock()
		return false
	}
	if m.builtin[r.name] == r {
		delete(m.builtin, r.name)
	}
	m.imu.Unlock()
	r.cancel()
	r.list.Store(nil)
	m.Logger.Info("Stopping an unused built-in list", "source", r.name, "unused", unused.Round(time.Second))
	if m.onIdle != nil {
		m.onIdle(r.name)
	}
	return true
}

// shadowBuiltin stops the built-in sources the modules file now defines.
func (m *Manager) shadowBuiltin(cfg config.Discovery) {
	m.stopBuiltin(func(name string) bool { _, ok := cfg[name]; return ok })
}

// stopBuiltin stops the built-in sources whose name matches and waits for them.
func (m *Manager) stopBuiltin(match func(string) bool) {
	m.imu.Lock()
	var stop []*running
	for name, r := range m.builtin {
		if match(name) {
			stop = append(stop, r)
			delete(m.builtin, name)
		}
	}
	m.imu.Unlock()
	for _, r := range stop {
		r.stop()
	}
}

// builtins returns the running built-in sources, by name.
func (m *Manager) builtins() []*running {
	m.imu.Lock()
	defer m.imu.Unlock()
	out := make([]*running, 0, len(m.builtin))
	for _, r := range m.builtin {
		out = append(out, r)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].name < out[j].name })
	return out
}
