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
}

// Per-probe metrics, in the order they are exposed. Nothing about a target outlives
// the request that probed it.
var (
	probeSuccess  = &metricDesc{"probe_success", "Whether the game server answered its status query (1) or not (0).", nil}
	probeDuration = &metricDesc{"probe_duration_seconds", "How long the probe took, name resolution included.", nil}
	probeTimeout  = &metricDesc{"probe_timeout_seconds", "The time the probe was allowed to take.", nil}
	probeFailure  = &metricDesc{"probe_failure_info", "Why the probe failed: 1 on the series whose reason applies.", []string{"reason"}}

	queryDuration = &metricDesc{"gameserver_query_duration_seconds", "Duration of each phase of the query; the info phase is the round trip a server browser calls ping.", []string{"phase"}}
	phaseSuccess  = &metricDesc{"gameserver_query_phase_success", "Whether each phase of the query succeeded; a failed players or rules phase does not fail the probe.", []string{"phase"}}
	queryAttempts = &metricDesc{"gameserver_query_attempts", "Request packets sent, retries included.", nil}
	queryPort     = &metricDesc{"gameserver_query_port", "The port the query was sent to.", nil}

	players        = &metricDesc{"gameserver_players", "Players on the server, as the server reports them.", nil}
	playersMax     = &metricDesc{"gameserver_players_max", "Player slots on the server.", nil}
	bots           = &metricDesc{"gameserver_bots", "Bots on the server, where the protocol reports them.", nil}
	info           = &metricDesc{"gameserver_info", "What the server runs; always 1.", []string{"game", "map", "name", "protocol", "version"}}
	password       = &metricDesc{"gameserver_password_required", "Whether joining the server needs a password.", nil}
	modded         = &metricDesc{"gameserver_modded", "Whether the server reports running mods.", nil}
	state          = &metricDesc{"gameserver_state", "The server's state, as a state set: 1 on the current state, 0 on the others.", []string{"state"}}
	substate       = &metricDesc{"gameserver_substate_version", "Change counters of the server's sub-states; they wrap, use changes().", []string{"substate"}}
	rulesCount     = &metricDesc{"gameserver_rules", "Number of rules (server variables) the server reported.", nil}
	playerScore    = &metricDesc{"gameserver_player_score", "Score of each player (opt-in, capped at max_player_series).", []string{"player"}}
	playerDuration = &metricDesc{"gameserver_player_connected_seconds", "How long each player has been connected (opt-in, capped at max_player_series).", []string{"player"}}
	playerPing     = &metricDesc{"gameserver_player_ping_seconds", "Ping of each player (opt-in, capped at max_player_series).", []string{"player"}}
)

// allDescs lists every per-probe metric, for documentation and lint tests.
var allDescs = []*metricDesc{
	probeSuccess, probeDuration, probeTimeout, probeFailure,
	queryDuration, phaseSuccess, queryAttempts, queryPort,
	players, playersMax, bots, info, password, modded, state, substate, rulesCount,
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
