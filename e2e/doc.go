// Package e2e holds the checks of the operator's kit in examples/ and the
// end-to-end test with real components. It has no code of its own: everything is
// in its tests.
//
//   - examples_test.go: every YAML file under examples/ parses; promtool checks the
//     Prometheus config and the alerting rules and runs their unit tests; every
//     PromQL expression of the Grafana dashboard and alert rules is valid; the
//     Kubernetes manifests use flags the binary accepts and port 10115.
//   - prometheus_test.go: the exporter, a real OpenArena server (Debian package
//     openarena-server), a fake Hytale server and a real Prometheus (Debian package
//     prometheus) on 127.0.0.1, configured from examples/prometheus.yml and
//     examples/alerts.yml; the players Prometheus stores must equal what quakestat
//     sees, and stopping the game server must raise GameServerDown; the servers
//     a fake master lists found through the exporter's /sd; two Prometheus shards
//     and two exporters splitting 40 targets. Skipped with -short.
//   - realservers_test.go: one exporter (built-in modules plus the modules file
//     testdata/realservers.yml) and, in parallel, every game server of the
//     Debian archive a protocol speaks to, each on free loopback port(s) with
//     master-server contact off: mvdsv + ktx (quakeworld), nexuiz-server
//     (darkplaces), cube2-server, redeclipse-server (cube2), mumble-server, openttd,
//     armagetronad-dedicated, teeworlds-server (0.7), ddnet-server (Teeworlds 0.6)
//     and openarena-server
//     (quake3). Each subtest probes its server through /probe and checks
//     probe_success, the players, max players, bots and gameserver_info labels
//     against quakestat at the same moment or, where no reference client reads
//     the protocol (OpenTTD 13, Armagetron, Teeworlds 0.7), against the server's
//     own configuration. The file's modules add the per-player series of the
//     Nexuiz bots (against quakestat -P), rules (gameserver_rules, and values
//     from the debug output: Sauerbraten's uptime and master mode, Mumble's
//     bandwidth, QuakeWorld's serverinfo) and Teeworlds pinned to 0.7 (answered)
//     and 0.6 (a timeout). Skipped with -short; a server that cannot be
//     installed skips its own subtest. gameservers_test.go holds the launch
//     recipes (shared with prometheus_test.go and minetest_test.go),
//     testdata/exbox.bsp the box map mvdsv needs, probe_test.go the client that
//     reads /probe.
//   - minetest_test.go: a real minetest-server announcing itself to a loopback
//     stand-in for servers.minetest.net (it serves back what the server
//     posted), and an exporter whose discovery source minetest points at it:
//     the minetest and luanti list modules report the server's configured name,
//     slots and password flag, its game and the package's version.
//   - podman_test.go: the Dockerfile builds with podman (offline: FROM scratch).
//   - statuspage_test.go: headless Chromium (Debian package chromium, driven with
//     chromedp) renders the status page after probes of loopback fakes: one row per
//     target, failure first, players, a hostile server name shown as text, sorting,
//     a probe from the page's form, working links; it saves a screenshot; and
//     420 px wide, as on a phone, nothing scrolls sideways.
//
// The processes, the exporter and Prometheus are started with internal/testenv,
// which the root package's and the chart's tests share.
//
// Tests whose tools are missing (promtool, prometheus, quakestat, the game servers,
// podman, chromium) skip with a message; `make test` installs the Debian packages as root.
package e2e
