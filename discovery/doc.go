// Package discovery turns server lists into Prometheus targets. The modules
// file's `discovery:` section (config.Discovery) names sources, a master server
// or a public list fetched by package protocols/master; a Manager refreshes
// each in the background, keeps the last good list when a refresh fails, and
// answers Prometheus' HTTP service discovery (GET /sd?source=NAME), "is this
// server listed?" (gameserver_listed) and its own metrics.
//
// Sources are fixed by the operator: no request names a URL or a master
// address, so the exporter is no proxy.
package discovery
