package collector

import (
	"net/netip"
	"time"

	"github.com/gameserver-exporter/gameserver_exporter/config"
	"github.com/gameserver-exporter/gameserver_exporter/protocols"
	"github.com/gameserver-exporter/gameserver_exporter/protocols/wire"
)

// outcome is everything one probe produced.
type outcome struct {
	module   *config.Module
	result   *protocols.Result
	err      error
	trace    *wire.Trace
	name     string         // module name
	host     string         // target host as given
	port     uint16         // query port
	addr     netip.AddrPort // what was queried, once resolved
	budget   time.Duration  // time the probe had
	duration time.Duration
	timeout  time.Duration
	when     time.Time // when the query started
	policy   error     // the target policy refused the target: no query was sent

	shared, cached bool // this request got another request's outcome
	// trimmed holds the players, rules and mods the result had when the history
	// kept only part of them (zero: all kept).
	trimmed [3]int
}

// buildFamilies turns a probe's outcome into metric families. Samples are added in
// exposition order (by metric name) where that is easy, so the final sort has
// little to move.
func buildFamilies(o *outcome) *families {
	f := newFamilies()
	r := o.result
	if o.err != nil {
		r = nil
	}
	if r != nil {
		count(f, bots, r.Bots)
		f.add(info, 1, cleanLabel(r.Game), cleanLabel(r.Map), cleanLabel(r.Name), o.protocol(), cleanLabel(r.Version))
		if o.module.Rules && r.Mods != nil {
			addMods(f, r.Mods, o.module.MaxPlayerSeries)
		}
		flag(f, modded, r.Modded)
		flag(f, password, r.Password)
		if o.module.Players && len(r.PlayerList) > 0 {
			addPlayers(f, r.PlayerList, o.module.MaxPlayerSeries)
		}
		count(f, players, r.Players)
		count(f, playersMax, r.MaxPlayers)
		count(f, queued, r.Queue)
	}
	if o.trace != nil {
		if o.trace.Attempts > 0 {
			f.add(queryAttempts, float64(o.trace.Attempts))
		}
		// A phase run more than once (another query port, a querier's own retry
		// loop) is one series: its time summed, its success the last run's.
		// Duplicate series would make Prometheus reject the scrape.
		phases := o.trace.Phases
		for i, p := range phases {
			if seenPhase(phases[:i], p.Name) {
				continue
			}
			d, last := p.Duration, p
			for _, q := range phases[i+1:] {
				if q.Name == p.Name {
					d, last = d+q.Duration, q
				}
			}
			f.add(queryDuration, d.Seconds(), p.Name)
			f.add(phaseSuccess, boolf(last.Err == nil && !phaseFailed(r, p.Name)), p.Name)
		}
	}
	// A protocol that reads players or rules from the info reply has no phase of
	// their own in the trace; their failure still shows as a failed phase.
	if r != nil {
		for i, pe := range r.PhaseErrors {
			if (o.trace == nil || !seenPhase(o.trace.Phases, pe.Phase)) && !seenPhaseError(r.PhaseErrors[:i], pe.Phase) {
				f.add(phaseSuccess, 0, pe.Phase)
			}
		}
	}
	if p := o.queryPort(); p != 0 {
		f.add(queryPort, float64(p))
	}
	if r != nil {
		if o.module.Rules && r.Rules != nil {
			f.add(rulesCount, float64(len(r.Rules)))
		}
		if r.State != "" {
			states := r.States
			if len(states) == 0 {
				states = []string{r.State}
			}
			for _, s := range states {
				f.add(state, boolf(s == r.State), cleanLabel(s))
			}
		}
		for _, s := range r.SubStates {
			f.add(substate, float64(s.Version), cleanLabel(s.Name))
		}
	}
	f.add(probeDuration, o.duration.Seconds())
	if o.err != nil {
		f.add(probeFailure, 1, protocols.Reason(o.err))
	}
	f.add(probeSuccess, boolf(o.err == nil))
	f.add(probeTimeout, o.timeout.Seconds())
	return f
}

func addPlayers(f *families, list []protocols.Player, max int) {
	if len(list) > max {
		list = list[:max]
	}
	names := make([]string, len(list))
	for i, p := range list {
		names[i] = p.Name
	}
	names = uniqueNames(names)
	for i, p := range list {
		if p.Score.Known {
			f.add(playerScore, float64(p.Score.Value), names[i])
		}
		if p.DurationKnown {
			f.add(playerDuration, p.Duration, names[i])
		}
		if p.Ping.Known {
			f.add(playerPing, float64(p.Ping.Value)/1000, names[i])
		}
	}
}

// addMods exports the mod count and, up to max, one info series per mod. Two
// mods of one name (a server listing a mod twice) keep distinct series through
// their ids; exact duplicates are dropped.
func addMods(f *families, mods []protocols.Mod, max int) {
	f.add(modsCount, float64(len(mods)))
	seen := make(map[protocols.Mod]bool, min(len(mods), max))
	for _, m := range mods {
		if len(seen) >= max {
			break
		}
		m = protocols.Mod{Name: cleanLabel(m.Name), ID: cleanLabel(m.ID)}
		if seen[m] {
			continue
		}
		seen[m] = true
		f.add(modInfo, 1, m.ID, m.Name)
	}
}

func count(f *families, d *metricDesc, c protocols.Count) {
	if c.Known {
		f.add(d, float64(c.Value))
	}
}

func flag(f *families, d *metricDesc, v protocols.Flag) {
	if v != protocols.FlagUnknown {
		f.add(d, boolf(v == protocols.FlagTrue))
	}
}

// protocol is the protocol that answered: the module's, unless its querier chose
// one (module auto).
func (o *outcome) protocol() string {
	if o.err == nil && o.result != nil && o.result.Protocol != "" {
		return o.result.Protocol
	}
	return o.module.Protocol
}

// queryPort is the port that answered: the one queried, unless the querier went
// to another (module auto tries query ports of the games the port suggests).
func (o *outcome) queryPort() uint16 {
	if o.err == nil && o.result != nil && o.result.QueryPort != 0 {
		return o.result.QueryPort
	}
	return o.port
}

// shortOf reports whether o is a timeout of a probe that had less time than budget
// (a tenth of slack, for the time spent before its deadline was set).
func (o *outcome) shortOf(budget time.Duration) bool {
	if o == nil || o.err == nil {
		return false
	}
	switch protocols.Reason(o.err) {
	case "timeout", "overloaded":
		return o.timeout < budget-budget/10
	}
	return false
}

func seenPhase(phases []wire.Phase, name string) bool {
	for _, p := range phases {
		if p.Name == name {
			return true
		}
	}
	return false
}

func phaseFailed(r *protocols.Result, name string) bool {
	return r != nil && seenPhaseError(r.PhaseErrors, name)
}

func seenPhaseError(pes []protocols.PhaseError, name string) bool {
	for _, pe := range pes {
		if pe.Phase == name {
			return true
		}
	}
	return false
}
