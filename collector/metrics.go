package collector

// Every per-probe metric the exporter exposes is defined in this file (the
// exporter's self-metrics are Metrics, in selfmetrics.go).

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
	startTime      = &metricDesc{name: "gameserver_start_time_seconds", help: "When the server process started, in Unix seconds, from the uptime the server reports; absent where the protocol does not say.", labels: nil}
	mapStartTime   = &metricDesc{name: "gameserver_map_start_time_seconds", help: "When the current map (round) started, in Unix seconds, where the protocol reports time on the map.", labels: nil}
	rulesCount     = &metricDesc{name: "gameserver_rules", help: "Number of rules (server variables) the server reported.", labels: nil}
	modsCount      = &metricDesc{name: "gameserver_mods", help: "Number of mods the server lists, where the game reports them (with rules).", labels: nil}
	modInfo        = &metricDesc{name: "gameserver_mod_info", help: "Each mod the server lists (with rules, capped at max_player_series); always 1.", labels: []string{"id", "mod"}}
	playerInfo     = &metricDesc{name: "gameserver_player_info", help: "Each listed player, with its team where the server says (opt-in, capped at max_player_series); always 1.", labels: []string{"player", "team"}}
	playerScore    = &metricDesc{name: "gameserver_player_score", help: "Score of each player (opt-in, capped at max_player_series).", labels: []string{"player"}}
	playerDuration = &metricDesc{name: "gameserver_player_connected_seconds", help: "How long each player has been connected (opt-in, capped at max_player_series).", labels: []string{"player"}}
	playerPing     = &metricDesc{name: "gameserver_player_ping_seconds", help: "Ping of each player (opt-in, capped at max_player_series).", labels: []string{"player"}}
	listedMetric   = &metricDesc{name: "gameserver_listed", help: "Whether the server is in each discovery source its module's listed_in names (absent while the source has no list).", labels: []string{"source"}}
)

// allDescs lists every per-probe metric, for documentation and lint tests.
var allDescs = []*metricDesc{
	probeSuccess, probeDuration, probeTimeout, probeFailure,
	queryDuration, phaseSuccess, queryAttempts, queryPort,
	players, playersMax, bots, queued, info, password, modded, state, substate, rulesCount,
	startTime, mapStartTime,
	modsCount, modInfo,
	playerInfo, playerScore, playerDuration, playerPing, listedMetric,
}
