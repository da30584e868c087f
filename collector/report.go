package collector

import (
	"io"

	"github.com/gameserver-exporter/gameserver_exporter/protocols"
)

// Report is a probe's outcome as plain data, for `gameserver_exporter query --json`.
type Report struct {
	Module     string           `json:"module"`
	Protocol   string           `json:"protocol,omitempty"` // the protocol that answered
	Target     string           `json:"target"`
	Success    bool             `json:"success"`
	Reason     string           `json:"reason,omitempty"`
	Error      string           `json:"error,omitempty"`
	Duration   float64          `json:"duration_seconds"`
	QueryPort  uint16           `json:"query_port,omitempty"`
	Attempts   int              `json:"attempts,omitempty"`
	Phases     []PhaseReport    `json:"phases,omitempty"`
	Name       string           `json:"name,omitempty"`
	Map        string           `json:"map,omitempty"`
	Game       string           `json:"game,omitempty"`
	Version    string           `json:"version,omitempty"`
	Players    *int64           `json:"players,omitempty"`
	MaxPlayers *int64           `json:"max_players,omitempty"`
	Bots       *int64           `json:"bots,omitempty"`
	Queue      *int64           `json:"queue,omitempty"`
	Password   *bool            `json:"password,omitempty"`
	Modded     *bool            `json:"modded,omitempty"`
	State      string           `json:"state,omitempty"`
	SubStates  map[string]int64 `json:"substates,omitempty"`
	PlayerList []PlayerReport   `json:"player_list,omitempty"`
	Info       [][2]string      `json:"info,omitempty"`
	Rules      [][2]string      `json:"rules,omitempty"`
	Mods       [][2]string      `json:"mods,omitempty"` // name, id
}

// PhaseReport is one timed phase of a query.
type PhaseReport struct {
	Name    string  `json:"name"`
	Seconds float64 `json:"seconds"`
	Error   string  `json:"error,omitempty"`
}

// PlayerReport is one player.
type PlayerReport struct {
	Name     string   `json:"name"`
	Score    *int64   `json:"score,omitempty"`
	Ping     *int64   `json:"ping_ms,omitempty"`
	Duration *float64 `json:"connected_seconds,omitempty"`
	Team     string   `json:"team,omitempty"`
	Bot      bool     `json:"bot,omitempty"`
}

// Report returns the probe's outcome as plain data.
func (e *Entry) Report() Report {
	o := e.outcome
	rep := Report{Module: e.Module, Target: e.Target, Success: e.Success, Reason: e.Reason,
		Duration: o.duration.Seconds(), QueryPort: o.queryPort()}
	if o.module != nil && o.err == nil {
		rep.Protocol = o.protocol()
	}
	if o.err != nil {
		rep.Error = o.err.Error()
	}
	if o.trace != nil {
		rep.Attempts = o.trace.Attempts
		for _, p := range o.trace.Phases {
			pr := PhaseReport{Name: p.Name, Seconds: p.Duration.Seconds()}
			if p.Err != nil {
				pr.Error = p.Err.Error()
			}
			rep.Phases = append(rep.Phases, pr)
		}
	}
	r := o.result
	if r == nil {
		return rep
	}
	rep.Name, rep.Map, rep.Game, rep.Version, rep.State = r.Name, r.Map, r.Game, r.Version, r.State
	rep.Players, rep.MaxPlayers, rep.Bots = countPtr(r.Players), countPtr(r.MaxPlayers), countPtr(r.Bots)
	rep.Queue = countPtr(r.Queue)
	rep.Password, rep.Modded = flagPtr(r.Password), flagPtr(r.Modded)
	for _, s := range r.SubStates {
		if rep.SubStates == nil {
			rep.SubStates = map[string]int64{}
		}
		rep.SubStates[s.Name] = s.Version
	}
	for _, p := range r.PlayerList {
		pr := PlayerReport{Name: p.Name, Score: countPtr(p.Score), Ping: countPtr(p.Ping), Team: p.Team, Bot: p.Bot}
		if p.DurationKnown {
			d := p.Duration
			pr.Duration = &d
		}
		rep.PlayerList = append(rep.PlayerList, pr)
	}
	for _, kv := range r.InfoKV() {
		rep.Info = append(rep.Info, [2]string{kv.Key, kv.Value})
	}
	for _, kv := range r.Rules {
		rep.Rules = append(rep.Rules, [2]string{kv.Key, kv.Value})
	}
	for _, m := range r.Mods {
		rep.Mods = append(rep.Mods, [2]string{m.Name, m.ID})
	}
	return rep
}

func countPtr(c protocols.Count) *int64 {
	if !c.Known {
		return nil
	}
	v := c.Value
	return &v
}

func flagPtr(f protocols.Flag) *bool {
	if f == protocols.FlagUnknown {
		return nil
	}
	b := f == protocols.FlagTrue
	return &b
}

// WriteDebug writes the probe's debug output, as /probe?debug=true shows it.
func (e *Entry) WriteDebug(w io.Writer) { writeDebug(w, e) }

// WriteMetrics writes the probe's metrics in the Prometheus text format.
func (e *Entry) WriteMetrics(w io.Writer) error {
	_, err := w.Write(buildFamilies(e.outcome).appendTo(nil, false))
	return err
}
