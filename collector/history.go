package collector

import (
	"sync"
	"time"

	"github.com/gameserver-exporter/gameserver_exporter/protocols"
)

// Entry is one probe as kept for the landing page and its debug link.
type Entry struct {
	ID       int64
	When     time.Time
	Module   string
	Target   string
	Success  bool
	Reason   string
	Duration time.Duration

	outcome *outcome
}

// History keeps the most recent probes: successes and failures in separate rings of
// the same size, so failures (what users come looking for) outlive a busy stream of
// successes.
type History struct {
	mu       sync.Mutex
	limit    int
	nextID   int64
	ok, fail []*Entry
}

// NewHistory keeps up to limit successes and limit failures.
func NewHistory(limit int) *History { return &History{limit: limit} }

// Add records a probe and returns its entry.
func (h *History) Add(module, target string, o *outcome) *Entry {
	e := &Entry{
		When: time.Now(), Module: module, Target: target, Success: o.err == nil,
		Reason: protocols.Reason(o.err), Duration: o.duration, outcome: o,
	}
	if h == nil || h.limit <= 0 {
		return e
	}
	h.mu.Lock()
	defer h.mu.Unlock()
	h.nextID++
	e.ID = h.nextID
	ring := &h.ok
	if !e.Success {
		ring = &h.fail
	}
	if len(*ring) >= h.limit {
		copy(*ring, (*ring)[1:])
		(*ring)[len(*ring)-1] = e
	} else {
		*ring = append(*ring, e)
	}
	return e
}

// List returns the kept probes, newest first.
func (h *History) List() []*Entry {
	h.mu.Lock()
	defer h.mu.Unlock()
	out := make([]*Entry, 0, len(h.ok)+len(h.fail))
	i, j := len(h.ok)-1, len(h.fail)-1
	for i >= 0 || j >= 0 {
		if j < 0 || (i >= 0 && h.ok[i].ID > h.fail[j].ID) {
			out = append(out, h.ok[i])
			i--
		} else {
			out = append(out, h.fail[j])
			j--
		}
	}
	return out
}

// Get returns the probe with the given id, if it is still kept.
func (h *History) Get(id int64) *Entry {
	h.mu.Lock()
	defer h.mu.Unlock()
	for _, ring := range [][]*Entry{h.ok, h.fail} {
		for _, e := range ring {
			if e.ID == id {
				return e
			}
		}
	}
	return nil
}
