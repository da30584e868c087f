// Package collector serves /probe: it resolves the target, runs the module's query,
// and turns the Result into metrics. Every metric the exporter exposes is defined in
// this file.
package collector

import (
	"github.com/prometheus/client_golang/prometheus"
)

// metricDesc defines one per-probe metric family.
// labels are in alphabetical order, as a registry would expose them.
type metricDesc struct {
	name   string
	help   string
	labels []string
	rank   int       // position in name order, set at init
	header [2]string // HELP and TYPE lines (text format, OpenMetrics), set at init
}

// Per-probe metrics, in the order they are exposed. Nothing about a target outlives
// the request that probed it.
var (
	probeSuccess  = &metricDesc{name: "probe_success", help: "Whether the game server answered its status query (1) or not (0).", labels: nil}
	probeDuration = &metricDesc{name: "probe_duration_seconds", help: "How long the probe took, name resolution included.", labels: nil}
	probeTimeout  = &metricDesc{name: "probe_timeout_seconds", help: "The time the probe was allowed to take.", labels: nil}
	probeFailure  = &metricDesc{name: "probe_failure_info", help: "Why the probe failed: 1 on the series whose reason applies.", labels: []string{"reason"}}

	queryDuration = &metricDesc{name: "gameserver_query_duration_seconds", help: "Duration of each phase of the query; the info phase is the round trip a server browser calls ping.", labels: []string{"phase"}}
	phaseSuccess  = &metricDesc{name: "gameserver_query_phase_success", help: "Whether each phase of the query succeeded; a failed players or rules phase does not fail the probe.", labels: []string{"phase"}}
	queryAttempts = &metricDesc{name: "gameserver_query_attempts", help: "Request packets sent, retries included.", labels: nil}
	queryPort     = &metricDesc{name: "gameserver_query_port", help: "The port the query was sent to.", labels: nil}

	players        = &metricDesc{name: "gameserver_players", help: "Players on the server, as the server reports them.", labels: nil}
	playersMax     = &metricDesc{name: "gameserver_players_max", help: "Player slots on the server.", labels: nil}
	bots           = &metricDesc{name: "gameserver_bots", help: "Bots on the server, where the protocol reports them.", labels: nil}
	queued         = &metricDesc{name: "gameserver_players_queued", help: "Players waiting in the join queue, where the game reports it.", labels: nil}
	info           = &metricDesc{name: "gameserver_info", help: "What the server runs; always 1.", labels: []string{"game", "map", "name", "protocol", "version"}}
	password       = &metricDesc{name: "gameserver_password_required", help: "Whether joining the server needs a password.", labels: nil}
	modded         = &metricDesc{name: "gameserver_modded", help: "Whether the server reports running mods.", labels: nil}
	state          = &metricDesc{name: "gameserver_state", help: "The server's state, as a state set: 1 on the current state, 0 on the others.", labels: []string{"state"}}
	substate       = &metricDesc{name: "gameserver_substate_version", help: "Change counters of the server's sub-states; they wrap, use changes().", labels: []string{"substate"}}
	rulesCount     = &metricDesc{name: "gameserver_rules", help: "Number of rules (server variables) the server reported.", labels: nil}
	modsCount      = &metricDesc{name: "gameserver_mods", help: "Number of mods the server lists, where the game reports them (with rules).", labels: nil}
	modInfo        = &metricDesc{name: "gameserver_mod_info", help: "Each mod the server lists (with rules, capped at max_player_series); always 1.", labels: []string{"id", "mod"}}
	playerScore    = &metricDesc{name: "gameserver_player_score", help: "Score of each player (opt-in, capped at max_player_series).", labels: []string{"player"}}
	playerDuration = &metricDesc{name: "gameserver_player_connected_seconds", help: "How long each player has been connected (opt-in, capped at max_player_series).", labels: []string{"player"}}
	playerPing     = &metricDesc{name: "gameserver_player_ping_seconds", help: "Ping of each player (opt-in, capped at max_player_series).", labels: []string{"player"}}
)

// allDescs lists every per-probe metric, for documentation and lint tests.
var allDescs = []*metricDesc{
	probeSuccess, probeDuration, probeTimeout, probeFailure,
	queryDuration, phaseSuccess, queryAttempts, queryPort,
	players, playersMax, bots, queued, info, password, modded, state, substate, rulesCount,
	modsCount, modInfo,
	playerScore, playerDuration, playerPing,
}

// Exporter self-metrics, on /metrics only.
const namespace = "gameserver_exporter"

// SelfMetrics are the exporter's own metrics.
type SelfMetrics struct {
	Probes         *prometheus.CounterVec
	Failures       *prometheus.CounterVec
	UnknownModule  prometheus.Counter
	PolicyRefusals prometheus.Counter
	Coalesced      prometheus.Counter
	InFlight       prometheus.Gauge
	ReloadSuccess  prometheus.Gauge
	ReloadSeconds  prometheus.Gauge
}

// NewSelfMetrics creates the self-metrics and registers them with reg.
func NewSelfMetrics(reg prometheus.Registerer) *SelfMetrics {
	m := &SelfMetrics{
		Probes: prometheus.NewCounterVec(prometheus.CounterOpts{
			Namespace: namespace, Name: "probes_total", Help: "Probes run, by module.",
		}, []string{"module"}),
		Failures: prometheus.NewCounterVec(prometheus.CounterOpts{
			Namespace: namespace, Name: "probe_failures_total", Help: "Probes that failed, by module and reason.",
		}, []string{"module", "reason"}),
		UnknownModule: prometheus.NewCounter(prometheus.CounterOpts{
			Namespace: namespace, Name: "unknown_module_requests_total", Help: "Probe requests that named a module that does not exist.",
		}),
		PolicyRefusals: prometheus.NewCounter(prometheus.CounterOpts{
			Namespace: namespace, Name: "target_policy_refusals_total", Help: "Probe requests refused by the target policy (HTTP 403).",
		}),
		Coalesced: prometheus.NewCounter(prometheus.CounterOpts{
			Namespace: namespace, Name: "probes_coalesced_total", Help: "Probe requests answered with a concurrent or cached probe of the same target.",
		}),
		InFlight: prometheus.NewGauge(prometheus.GaugeOpts{
			Namespace: namespace, Name: "probes_in_flight", Help: "Probes running now.",
		}),
		ReloadSuccess: prometheus.NewGauge(prometheus.GaugeOpts{
			Namespace: namespace, Name: "config_last_reload_successful", Help: "Whether the last modules file reload succeeded.",
		}),
		ReloadSeconds: prometheus.NewGauge(prometheus.GaugeOpts{
			Namespace: namespace, Name: "config_last_reload_success_timestamp_seconds", Help: "When the modules file was last loaded successfully.",
		}),
	}
	reg.MustRegister(m.Probes, m.Failures, m.UnknownModule, m.PolicyRefusals, m.Coalesced, m.InFlight, m.ReloadSuccess, m.ReloadSeconds)
	return m
}
