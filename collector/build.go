package collector

import (
	"github.com/gameserver-exporter/gameserver_exporter/config"
	"github.com/gameserver-exporter/gameserver_exporter/protocols"
	"github.com/gameserver-exporter/gameserver_exporter/protocols/wire"
)

// buildFamilies turns a probe's outcome into metric families. Samples are added in
// exposition order (by metric name) where that is easy, so the final sort has
// little to move.
func buildFamilies(o *Outcome) *families {
	f := newFamilies()
	r := o.Result
	if o.Err != nil {
		r = nil
	}
	if r != nil {
		addServer(f, o, r)
	}
	if o.Trace != nil {
		addPhases(f, o.Trace, r)
	}
	if r != nil {
		addPhaseErrors(f, o.Trace, r)
	}
	if p := o.QueryPort(); p != 0 {
		f.add(queryPort, float64(p))
	}
	if r != nil {
		addStates(f, o.Module, r)
		addStartTimes(f, o)
	}
	addListed(f, o)
	f.add(probeDuration, o.Duration.Seconds())
	if o.Err != nil {
		f.add(probeFailure, 1, wire.Reason(o.Err))
	}
	f.add(probeSuccess, boolf(o.Err == nil))
	f.add(probeTimeout, o.Timeout.Seconds())
	return f
}

// addServer adds what the server said of itself, from bots to queued (by name).
func addServer(f *families, o *Outcome, r *protocols.Result) {
	count(f, bots, r.Bots)
	f.add(info, 1, cleanLabel(r.Game), cleanLabel(r.Map), cleanLabel(r.Name), o.Protocol(), cleanLabel(r.Version))
	if o.Module.Rules && r.Mods != nil {
		addMods(f, r.Mods, o.Module.MaxPlayerSeries)
	}
	flag(f, modded, r.Modded)
	flag(f, password, r.Password)
	if o.Module.Players && len(r.PlayerList) > 0 {
		addPlayers(f, r.PlayerList, o.Module.MaxPlayerSeries)
	}
	count(f, players, r.Players)
	count(f, playersMax, r.MaxPlayers)
	count(f, queued, r.Queue)
}

// addPhases adds the attempts and each phase's duration and success. A phase run
// more than once (another query port, a querier's own retry loop) is one series:
// its time summed, its success the last run's. Duplicate series would make
// Prometheus reject the scrape.
func addPhases(f *families, tr *wire.Trace, r *protocols.Result) {
	if tr.Attempts > 0 {
		f.add(queryAttempts, float64(tr.Attempts))
	}
	phases := tr.Phases
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

// addPhaseErrors: a protocol that reads players or rules from the info reply has
// no phase of their own in the trace; their failure still shows as a failed phase.
func addPhaseErrors(f *families, tr *wire.Trace, r *protocols.Result) {
	for i, pe := range r.PhaseErrors {
		if (tr == nil || !seenPhase(tr.Phases, pe.Phase)) && !seenPhaseError(r.PhaseErrors[:i], pe.Phase) {
			f.add(phaseSuccess, 0, pe.Phase)
		}
	}
}

// addStates adds the rules count, the state set and the sub-state versions.
func addStates(f *families, mod *config.Module, r *protocols.Result) {
	if mod.Rules && r.Rules != nil {
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
		// Every listed player has this series, so a protocol that reports
		// names only (or names and teams) still shows its players.
		f.add(playerInfo, 1, names[i], cleanLabel(p.Team))
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

// count adds a count the server reported. A negative one is a decoder's miss
// (protocols.ParseCount and CountOf leave them unknown): no gauge says -3 players.
func count(f *families, d *metricDesc, c protocols.Count) {
	if c.Known && c.Value >= 0 {
		f.add(d, float64(c.Value))
	}
}

func flag(f *families, d *metricDesc, v protocols.Flag) {
	if v != protocols.FlagUnknown {
		f.add(d, boolf(v == protocols.FlagTrue))
	}
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

// Append appends the metrics of a probe to b: the text format 0.0.4, or
// OpenMetrics 1.0 when om is set.
func Append(b []byte, o *Outcome, om bool) []byte {
	f := buildFamilies(o)
	b = f.appendTo(b, om)
	f.release()
	return b
}
