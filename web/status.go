package web

import (
	"cmp"
	"slices"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/gameserver-exporter/gameserver_exporter/collector"
	"github.com/gameserver-exporter/gameserver_exporter/protocols"
	"github.com/gameserver-exporter/gameserver_exporter/protocols/wire"
)

// TargetStatus is the last probe of one target by one module, as the status page
// shows it.
type TargetStatus struct {
	Module, Target string
	Up             bool
	// Since is when the target last went up or down (or was first seen).
	Since time.Time
	// When is when the last probe's query started (for a cached answer, the query
	// that made it).
	When time.Time
	// Server name, map and game: from the last successful probe, also while the
	// target is down, so a failing row still says which server it is.
	Name, Map, Game           string
	Players, MaxPlayers, Bots protocols.Count // of the last probe; unknown when down
	Latency                   time.Duration
	Reason                    string // failure reason; "" when up
	Error                     string // failure message, cut to maxErrorText
	PartialPhase              string // first phase that failed on a server that is up
	// Started and MapStarted are when the server process and its current map
	// started, where the protocol says (zero: unknown), from the last successful
	// probe.
	Started, MapStarted time.Time
	// Answered says which protocol and port answered, for a module that picks
	// them itself (protocol auto): "a2s on port 2457"; "" otherwise or when down.
	Answered string
	ID       int64 // history entry of the last probe
	Kept     bool  // the history still holds entry ID: /logs?id=ID answers
}

// Caps on what a row keeps of a server's strings: enough to recognise a server;
// a protocol may allow kilobytes.
const (
	maxNameText  = 128
	maxShortText = 64
	maxErrorText = 240
)

// MinStatusTargets is the least number of targets the status table keeps: an
// exporter watching a fleet of up to a thousand servers shows each of them (a row
// keeps under 1 KiB, capped strings included), and recording a probe allocates
// nothing for a target already in the table.
const MinStatusTargets = 1024

// statusLimit is how many targets the status table keeps for a history of limit
// probes of each kind: as many as the history keeps entries, and at least
// MinStatusTargets; none when the history is off.
func statusLimit(limit int) int {
	if limit <= 0 {
		return 0
	}
	return max(2*limit, MinStatusTargets)
}

type statusKey struct{ module, target string }

// statusRow is one target's row, linked in recency order. Rows are reused: a new
// target takes the evicted row's memory, and a target probed again keeps its
// strings when the server sends the same ones, so recording allocates only for
// new targets and changed names.
type statusRow struct {
	key        statusKey
	prev, next *statusRow

	id                        int64
	when, since               time.Time
	up                        bool
	name, mapName, game       string
	players, maxPlayers, bots protocols.Count
	latency                   time.Duration
	err                       error
	partial                   string
	started, mapStarted       time.Time
	// protocol and port answered, for an auto module's successful probe.
	protocol string
	port     uint16
}

// targetTable holds the last probe of each of the most recently probed targets.
// Clients choose targets, so it is bounded: past limit, the target probed least
// recently is dropped. Guarded by History.mu.
type targetTable struct {
	limit      int
	rows       map[statusKey]*statusRow
	head, tail *statusRow // most recently probed first
}

// record stores probe id, whose query started at when, as its target's row.
func (t *targetTable) record(id int64, when time.Time, o *collector.Outcome) {
	if t.limit <= 0 {
		return
	}
	row := t.rows[statusKey{o.ModuleName, o.Target}]
	if row != nil {
		t.unlink(row)
	} else {
		if t.rows == nil {
			t.rows = make(map[statusKey]*statusRow)
		}
		if len(t.rows) >= t.limit {
			row = t.tail
			t.unlink(row)
			delete(t.rows, row.key)
			*row = statusRow{}
		} else {
			row = new(statusRow)
		}
		// Cloned: the request's strings may be cut from a larger buffer.
		row.key = statusKey{strings.Clone(o.ModuleName), strings.Clone(o.Target)}
		t.rows[row.key] = row
	}
	t.pushFront(row)

	up := o.Success()
	if row.since.IsZero() || row.up != up {
		row.since = when
	}
	row.id, row.when, row.up, row.latency, row.err = id, when, up, o.Duration, o.Err
	row.players, row.maxPlayers, row.bots, row.partial = protocols.Count{}, protocols.Count{}, protocols.Count{}, ""
	row.protocol, row.port = "", 0
	if up && o.Module != nil && o.Module.Protocol == "auto" {
		row.protocol, row.port = o.Protocol(), o.QueryPort() // registry names: no copy needed
	}
	if r := o.Result; r != nil && o.Err == nil {
		row.name = keepString(row.name, r.Name, maxNameText)
		row.mapName = keepString(row.mapName, r.Map, maxShortText)
		row.game = keepString(row.game, r.Game, maxShortText)
		row.players, row.maxPlayers, row.bots = r.Players, r.MaxPlayers, r.Bots
		row.started, row.mapStarted = o.StartTimes()
		if len(r.PhaseErrors) > 0 {
			row.partial = r.PhaseErrors[0].Phase
		}
	}
}

func (t *targetTable) unlink(r *statusRow) {
	if r.prev != nil {
		r.prev.next = r.next
	} else {
		t.head = r.next
	}
	if r.next != nil {
		r.next.prev = r.prev
	} else {
		t.tail = r.prev
	}
	r.prev, r.next = nil, nil
}

func (t *targetTable) pushFront(r *statusRow) {
	r.next = t.head
	if t.head != nil {
		t.head.prev = r
	}
	t.head = r
	if t.tail == nil {
		t.tail = r
	}
}

// keepString returns s cut to n bytes (on a rune boundary): old itself when it
// holds the same text, else a copy that does not pin the reply it came from.
func keepString(old, s string, n int) string {
	s = cutString(s, n)
	if s == old {
		return old
	}
	return strings.Clone(s)
}

func cutString(s string, n int) string {
	if len(s) <= n {
		return s
	}
	for n > 0 && !utf8.RuneStart(s[n]) {
		n--
	}
	return s[:n]
}

// oldestID is the id of the oldest entry a ring holds (0 when empty): entries of a
// ring get increasing ids, so one of its kind is kept exactly when its id is at
// least this.
func (r *ring) oldestID() int64 {
	if len(r.entries) == 0 {
		return 0
	}
	return r.entries[r.next].ID // next stays 0 until the ring is full
}

// Targets returns the last probe of each recently probed target: failures first,
// then by module and target.
func (h *History) Targets() []TargetStatus {
	if h == nil {
		return nil
	}
	h.mu.Lock()
	okFrom, failFrom := h.ok.oldestID(), h.fail.oldestID()
	out := make([]TargetStatus, 0, len(h.targets.rows))
	errs := make([]error, 0, len(h.targets.rows))
	for r := h.targets.head; r != nil; r = r.next {
		from := okFrom
		if !r.up {
			from = failFrom
		}
		out = append(out, TargetStatus{
			Module: r.key.module, Target: r.key.target, Up: r.up, Since: r.since, When: r.when,
			Name: r.name, Map: r.mapName, Game: r.game,
			Players: r.players, MaxPlayers: r.maxPlayers, Bots: r.bots,
			Latency: r.latency, PartialPhase: r.partial, ID: r.id, Kept: from > 0 && r.id >= from,
			Started: r.started, MapStarted: r.mapStarted,
		})
		if r.protocol != "" {
			out[len(out)-1].Answered = r.protocol + " on port " + strconv.Itoa(int(r.port))
		}
		errs = append(errs, r.err)
	}
	h.mu.Unlock()
	// Messages are formatted here, for the page, not on every probe.
	for i, err := range errs {
		if err != nil {
			out[i].Reason = wire.Reason(err)
			out[i].Error = strings.ToValidUTF8(cutString(err.Error(), maxErrorText), "\uFFFD")
		}
	}
	slices.SortFunc(out, func(a, b TargetStatus) int {
		if a.Up != b.Up {
			if !a.Up {
				return -1
			}
			return 1
		}
		return cmp.Or(cmp.Compare(a.Module, b.Module), cmp.Compare(a.Target, b.Target))
	})
	return out
}
