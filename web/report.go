package web

import (
	"github.com/gameserver-exporter/gameserver_exporter/collector"
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

// NewReport returns the probe's outcome as plain data: a JSON view of it, built
// when asked for.
func NewReport(o *collector.Outcome) Report {
	rep := Report{Module: o.ModuleName, Target: o.Target, Success: o.Success(), Reason: o.Reason(),
		Duration: o.Duration.Seconds(), QueryPort: o.QueryPort()}
	if o.Module != nil && o.Err == nil {
		rep.Protocol = o.Protocol()
	}
	if o.Err != nil {
		rep.Error = o.Err.Error()
	}
	if o.Trace != nil {
		rep.Attempts = o.Trace.Attempts
		for _, p := range o.Trace.Phases {
			pr := PhaseReport{Name: p.Name, Seconds: p.Duration.Seconds()}
			if p.Err != nil {
				pr.Error = p.Err.Error()
			}
			rep.Phases = append(rep.Phases, pr)
		}
	}
	r := o.Result
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
