package collector

import (
	"net/netip"
	"time"

	"github.com/gameserver-exporter/gameserver_exporter/config"
	"github.com/gameserver-exporter/gameserver_exporter/protocols"
	"github.com/gameserver-exporter/gameserver_exporter/protocols/wire"
)

// Outcome is everything one finished probe produced: the one representation of a
// probe that metrics, debug output, the JSON report and the history all read.
// An Outcome is not changed once Run has returned it (other requests may share it).
type Outcome struct {
	Module     *config.Module
	ModuleName string // the module's name in the config
	Target     string // the target as the request gave it
	Result     *protocols.Result
	Err        error
	Trace      *wire.Trace
	Host       string         // target host as given
	Port       uint16         // query port
	Addr       netip.AddrPort // what was queried, once resolved
	Budget     time.Duration  // time the probe had
	Duration   time.Duration
	Timeout    time.Duration
	When       time.Time // when the query started
	Policy     error     // the target policy refused the target: no query was sent

	Shared, Cached bool // this request got another request's outcome
	// Trimmed holds the players, rules and mods the result had when the history
	// kept only part of them (zero: all kept).
	Trimmed [3]int
	// Listed says, per source the module's listed_in names, whether the server
	// is in its cached list (listed.go).
	Listed []ListedIn
}

// Success reports whether the probe succeeded.
func (o *Outcome) Success() bool { return o.Err == nil }

// Reason is the failure reason ("" on success).
func (o *Outcome) Reason() string { return wire.Reason(o.Err) }

// Protocol is the protocol that answered: the module's, unless its querier chose
// one (module auto).
func (o *Outcome) Protocol() string {
	if o.Err == nil && o.Result != nil && o.Result.Protocol != "" {
		return o.Result.Protocol
	}
	return o.Module.Protocol
}

// QueryPort is the port that answered: the one queried, unless the querier went
// to another (module auto tries query ports of the games the port suggests).
func (o *Outcome) QueryPort() uint16 {
	if o.Err == nil && o.Result != nil && o.Result.QueryPort != 0 {
		return o.Result.QueryPort
	}
	return o.Port
}

// shortOf reports whether o is a timeout of a probe that had less time than budget
// (a tenth of slack, for the time spent before its deadline was set).
func (o *Outcome) shortOf(budget time.Duration) bool {
	if o == nil || o.Err == nil {
		return false
	}
	switch wire.Reason(o.Err) {
	case "timeout", "overloaded":
		return o.Timeout < budget-budget/10
	}
	return false
}
