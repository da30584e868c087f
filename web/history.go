package web

import (
	"strings"
	"sync"
	"time"

	"github.com/gameserver-exporter/gameserver_exporter/collector"
	"github.com/gameserver-exporter/gameserver_exporter/protocols"
)

// Kept is a probe the history keeps: its outcome and the id its debug link names.
type Kept struct {
	ID      int64
	Outcome *collector.Outcome
}

// History keeps the most recent probes: successes and failures in separate rings of
// the same size, so failures (what users come looking for) outlive a busy stream of
// successes.
type History struct {
	mu       sync.Mutex
	limit    int
	nextID   int64
	ok, fail ring
	targets  targetTable // each recent target's last probe, for the status page
}

// ring holds the last probes added, oldest first from next once full.
type ring struct {
	entries []Kept
	next    int // where the next entry goes once the ring is full
}

func (r *ring) add(e Kept, limit int) {
	if len(r.entries) < limit {
		r.entries = append(r.entries, e)
		return
	}
	r.entries[r.next] = e
	r.next = (r.next + 1) % limit
}

// newestFirst returns the entries, newest first.
func (r *ring) newestFirst() []Kept {
	n := len(r.entries)
	out := make([]Kept, 0, n)
	for i := range n {
		out = append(out, r.entries[(r.next+n-1-i)%n])
	}
	return out
}

// NewHistory keeps up to limit successes and limit failures, and the last probe of
// the most recently probed targets (see statusLimit).
func NewHistory(limit int) *History {
	return &History{limit: limit, targets: targetTable{limit: statusLimit(limit)}}
}

// Add records a probe and returns its id (0 when the history is off). The history
// keeps o itself, or a summary of it when its lists are long (see summarize).
func (h *History) Add(o *collector.Outcome) int64 {
	if h == nil || h.limit <= 0 {
		return 0
	}
	when := o.When
	if when.IsZero() { // no query ran (waiting for another request's ended first)
		when = time.Now()
	}
	kept := summarize(o)
	h.mu.Lock()
	defer h.mu.Unlock()
	h.nextID++
	if o.Success() {
		h.ok.add(Kept{h.nextID, kept}, h.limit)
	} else {
		h.fail.add(Kept{h.nextID, kept}, h.limit)
	}
	h.targets.record(h.nextID, when, o)
	return h.nextID
}

// What the history keeps of a result's lists: enough to debug a probe, while a
// 4,096-player reply (or a server that sends a thousand rules) is not held a
// hundred times over. keptText caps every string it keeps (name, map, game,
// version, state, info and rule keys and values, player names, mods): a server
// that calls itself 250 KB must not hold 250 KB in each of the history's entries.
// The trace is bounded by wire.MaxTraceBytes already.
const (
	keptPlayers = 32
	keptRules   = 64
	keptMods    = 32
	keptText    = 256
)

// summarize returns o, or a copy whose result lists and strings are cut to what
// the history keeps. Kept strings are cloned: a substring would hold the whole
// reply.
func summarize(o *collector.Outcome) *collector.Outcome {
	r := o.Result
	if r == nil || (len(r.PlayerList) <= keptPlayers && len(r.Rules) <= keptRules && len(r.Mods) <= keptMods && !overlong(r)) {
		return o
	}
	c := *r
	c.Name, c.Map, c.Game, c.Version, c.State = keep(r.Name), keep(r.Map), keep(r.Game), keep(r.Version), keep(r.State)
	c.States = make([]string, len(r.States))
	for i, st := range r.States {
		c.States[i] = keep(st)
	}
	c.PlayerList = make([]protocols.Player, min(len(r.PlayerList), keptPlayers))
	for i := range c.PlayerList {
		c.PlayerList[i] = r.PlayerList[i]
		c.PlayerList[i].Name = keep(r.PlayerList[i].Name)
		c.PlayerList[i].Team = keep(r.PlayerList[i].Team)
	}
	c.Rules = cloneKVs(r.Rules, keptRules)
	c.Info, c.InfoFunc = cloneKVs(r.InfoKV(), keptRules), nil
	c.Mods = make([]protocols.Mod, min(len(r.Mods), keptMods))
	for i := range c.Mods {
		c.Mods[i] = protocols.Mod{Name: keep(r.Mods[i].Name), ID: keep(r.Mods[i].ID)}
	}
	v := *o
	v.Result = &c
	v.Trimmed = [3]int{len(r.PlayerList), len(r.Rules), len(r.Mods)}
	return &v
}

// overlong reports whether any string of r the history would keep is over
// keptText. A lazily decoded info list (InfoFunc) is not decoded for this: it
// holds the reply, which the protocol's read caps bound.
func overlong(r *protocols.Result) bool {
	long := func(s string) bool { return len(s) > keptText }
	if long(r.Name) || long(r.Map) || long(r.Game) || long(r.Version) || long(r.State) {
		return true
	}
	for _, st := range r.States {
		if long(st) {
			return true
		}
	}
	for _, kvs := range [][]protocols.KV{r.Rules, r.Info} {
		for _, kv := range kvs {
			if long(kv.Key) || long(kv.Value) {
				return true
			}
		}
	}
	for _, p := range r.PlayerList {
		if long(p.Name) || long(p.Team) {
			return true
		}
	}
	for _, m := range r.Mods {
		if long(m.Name) || long(m.ID) {
			return true
		}
	}
	return false
}

// keep returns a copy of s cut to keptText bytes on a rune boundary.
func keep(s string) string { return strings.Clone(cutString(s, keptText)) }

func cloneKVs(kvs []protocols.KV, n int) []protocols.KV {
	out := make([]protocols.KV, min(len(kvs), n))
	for i := range out {
		out[i] = protocols.KV{Key: keep(kvs[i].Key), Value: keep(kvs[i].Value)}
	}
	return out
}

// List returns the kept probes, newest first.
func (h *History) List() []Kept {
	h.mu.Lock()
	ok, fail := h.ok.newestFirst(), h.fail.newestFirst()
	h.mu.Unlock()
	out := make([]Kept, 0, len(ok)+len(fail))
	for len(ok) > 0 || len(fail) > 0 {
		if len(fail) == 0 || (len(ok) > 0 && ok[0].ID > fail[0].ID) {
			out, ok = append(out, ok[0]), ok[1:]
		} else {
			out, fail = append(out, fail[0]), fail[1:]
		}
	}
	return out
}

// Get returns the probe with the given id, nil when it is no longer kept.
func (h *History) Get(id int64) *collector.Outcome {
	h.mu.Lock()
	defer h.mu.Unlock()
	for _, r := range []*ring{&h.ok, &h.fail} {
		for _, e := range r.entries {
			if e.ID == id {
				return e.Outcome
			}
		}
	}
	return nil
}
