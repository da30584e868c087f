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
//     sees, and stopping the game server must raise GameServerDown. Skipped with
//     -short.
//   - podman_test.go: the Dockerfile builds with podman (offline: FROM scratch).
//
// Tests whose tools are missing (promtool, prometheus, quakestat, the game server,
// podman) skip with a message; `make test` installs the Debian packages as root.
package e2e
