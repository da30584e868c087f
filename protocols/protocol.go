// Package protocols defines the contract between the exporter and the game-server
// query protocols: a Querier asks one server for its status and returns a Result.
// Nothing in protocols/ knows about Prometheus; package collector turns Results into
// metrics.
package protocols

import (
	"context"
	"math"
	"net/netip"
	"strconv"
	"strings"
	"time"

	"github.com/gameserver-exporter/gameserver_exporter/protocols/wire"
)

// A Querier asks one game server for its status. It is built once per module from the
// validated module config and is safe for concurrent use.
//
// Query returns what it learned even when a later phase (players, rules) fails: such
// a failure is recorded in Result.PhaseErrors and the error return stays nil. A non-nil
// error means the server's status is unknown; it wraps one of the sentinel errors of
// package wire so that wire.Reason can name it.
type Querier interface {
	Query(ctx context.Context, t Target, tr *wire.Trace) (*Result, error)
}

// Target is what a query is sent to: the address the socket uses (resolved, and
// approved by the target policy) and the host name the target was given as, before
// resolution ("" for an address), for protocols that send it to the server
// (Minecraft's handshake names it, so proxies can route virtual hosts).
type Target struct {
	Addr netip.AddrPort
	Host string
}

// At is the Target of an address given without a host name.
func At(addr netip.AddrPort) Target { return Target{Addr: addr} }

// OnPort is the target's address with port instead of its own: another service
// of the same host (a query port, a plugin's); 0 keeps the target's port.
func (t Target) OnPort(port uint16) netip.AddrPort {
	if port == 0 {
		return t.Addr
	}
	return netip.AddrPortFrom(t.Addr.Addr(), port)
}

// Count is a number a protocol may or may not report. The zero value is "not reported",
// so a protocol that knows nothing of bots never exports a fake 0.
type Count struct {
	Value int64
	Known bool
}

// Known returns a reported count.
func Known(v int64) Count { return Count{Value: v, Known: true} }

// CountOf is the count a JSON field reports: unknown when the field is absent
// (nil) or negative.
func CountOf(p *int64) Count {
	if p == nil || *p < 0 {
		return Count{}
	}
	return Known(*p)
}

// ParseCount is a count a server sends as decimal text, blanks around it:
// unknown unless it is a non-negative 32-bit number.
func ParseCount(s string) Count {
	n, err := strconv.ParseInt(strings.TrimSpace(s), 10, 32)
	if err != nil || n < 0 {
		return Count{}
	}
	return Known(n)
}

// Flag is a yes/no value a protocol may or may not report.
type Flag uint8

const (
	FlagUnknown Flag = iota
	FlagFalse
	FlagTrue
)

// FlagOf turns a reported bool into a Flag.
func FlagOf(b bool) Flag {
	if b {
		return FlagTrue
	}
	return FlagFalse
}

// Span is a time a protocol may or may not report: how long something (the server
// process, the current map) has been going on, as of the server's reply. The zero
// value is "not reported", so a protocol that knows nothing of uptime never
// exports a guessed start time.
type Span struct {
	D     time.Duration
	Known bool
}

// maxSpan caps a reported span: a peer's 1e300 seconds must not become a start
// time before the epoch. Longer than any server runs.
const maxSpan = 50 * 365 * 24 * time.Hour

// SpanSeconds returns a reported span of s seconds, or the zero Span (not reported)
// when s is negative, not finite or past 50 years: a value no server can mean is
// left out rather than guessed at.
func SpanSeconds(s float64) Span {
	if math.IsNaN(s) || s < 0 || s > maxSpan.Seconds() {
		return Span{}
	}
	return Span{D: time.Duration(s * float64(time.Second)), Known: true}
}

// Player is one entry of a server's player list. Strings are raw but valid UTF-8
// (decoders convert legacy code pages); package collector sanitises and caps them.
type Player struct {
	Name     string
	Score    Count
	Ping     Count   // milliseconds
	Duration float64 // seconds connected; meaningful only when DurationKnown
	// DurationKnown marks Duration as reported.
	DurationKnown bool
	Team          string
	Bot           bool
}

// KV is one key/value pair in wire order (rules, info strings).
type KV struct {
	Key, Value string
}

// Lookup returns the value of the first pair with key in kvs.
func Lookup(kvs []KV, key string) (string, bool) {
	for _, kv := range kvs {
		if kv.Key == key {
			return kv.Value, true
		}
	}
	return "", false
}

// Mod is one mod (add-on, workshop item) the server says it runs.
type Mod struct {
	Name string
	ID   string // workshop or store id, "" when the server sends none
}

// SubState is a named change counter (Satisfactory's sub-state versions).
type SubState struct {
	Name    string
	Version int64
}

// PhaseError records a phase that failed after the server had answered its info query.
type PhaseError struct {
	Phase string
	Err   error
}

// Result is what a status query learned. Only fields the protocol reports are set.
type Result struct {
	Game    string // game or mod name as the server reports it
	Name    string // server name
	Map     string
	Version string

	Players    Count
	MaxPlayers Count
	Bots       Count
	Queue      Count // players waiting to join (Rust, DayZ)
	Password   Flag
	Modded     Flag

	// Uptime is how long the server process has run and MapTime how long the
	// current map (round, world) has, as of the reply; package exposition turns them
	// into start timestamps with the probe's clock.
	Uptime  Span
	MapTime Span
	// Started is when the server process started, for protocols that report
	// the moment rather than a span (StarMade); zero when not reported. It is
	// exported as is, over Uptime.
	Started time.Time

	// State is the server's current state; States lists every state the protocol
	// knows, so a complete state set can be exported.
	State     string
	States    []string
	SubStates []SubState

	PlayerList []Player // filled when the module asks for players
	Rules      []KV     // filled when the module asks for rules
	// Mods is filled when the server lists its mods (Arma 3 and DayZ in their rules);
	// nil when it does not, empty when it lists none.
	Mods []Mod
	Info []KV // raw key/values of the info reply, for debug output
	// InfoFunc, when Info is nil, builds it on demand: Info is read only by debug
	// output, so a protocol may defer the work of formatting it.
	InfoFunc func() []KV

	PhaseErrors []PhaseError

	// Protocol and QueryPort are set by a querier that chose the protocol itself
	// (module auto; hytale names its flavour, "hytale/hyquery"): what answered,
	// and on which port. "" and 0 otherwise.
	Protocol  string
	QueryPort uint16
}

// Errors: every error a Querier returns wraps exactly one of the sentinel errors of
// package wire (wire.ErrTimeout, wire.ErrMalformed, ...), and wire.Reason names it.

// InfoKV returns the raw key/values of the info reply, building them if deferred.
func (r *Result) InfoKV() []KV {
	if r.Info == nil && r.InfoFunc != nil {
		return r.InfoFunc()
	}
	return r.Info
}
