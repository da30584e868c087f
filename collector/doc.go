// Package collector runs a probe and turns its result into metrics: everything
// between the HTTP request (package web) and the protocols (package protocols).
//
// The pipeline, in the order a /probe request meets it:
//
//	request    Runner.Run: module, target and timeout checked (target.go, timeout.go)
//	module     the loaded config's compiled Querier (config.SafeConfig)
//	policy     the target policy decides on the address the socket will use, after
//	           DNS and SRV (target.go, checkPolicy in runner.go)
//	flight     in-flight and waiting caps (limit.go); single-flight, min-interval and
//	           cache per target (flight.go)
//	query      Querier.Query within the deadline, one try per query port (runner.go)
//	result     Outcome: the Result or the error, its reason, the trace (outcome.go)
//	families   Outcome → metric families (build.go, families.go; every per-probe
//	           metric is defined in metrics.go, label values cleaned in sanitize.go)
//	encoding   text format or OpenMetrics as the scraper's Accept header negotiates
//	           (negotiate.go)
//
// The exporter's own metrics (probes, cache, in-flight, reloads) are Metrics, in
// selfmetrics.go. Nothing here knows a protocol's name or wire format.
package collector
