// Package charts holds the Helm chart of gameserver_exporter (gameserver-exporter/)
// and its tests: helm lint and helm template with each of the chart's ci/ values
// files, every rendered object decoded strictly into its Kubernetes or
// prometheus-operator type, and the rendered Deployment's arguments started for real.
//
// It is a module of its own so that Helm and the Kubernetes and prometheus-operator
// API types, which the tests need and the exporter does not, stay out of the
// exporter's go.mod. Helm is pinned here as a tool (`go tool helm`).
package charts
