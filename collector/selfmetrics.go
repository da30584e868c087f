package collector

import (
	"github.com/prometheus/client_golang/prometheus"
)

// Exporter self-metrics, on /metrics only. The per-probe metrics are package
// exposition's.
const namespace = "gameserver_exporter"

// Metrics are the exporter's own metrics.
type Metrics struct {
	Probes         *prometheus.CounterVec
	Failures       *prometheus.CounterVec
	UnknownModule  prometheus.Counter
	PolicyRefusals prometheus.Counter
	Coalesced      prometheus.Counter
	InFlight       prometheus.Gauge
	ReloadSuccess  prometheus.Gauge
	ReloadSeconds  prometheus.Gauge
}

// NewMetrics creates the self-metrics and registers them with reg.
func NewMetrics(reg prometheus.Registerer) *Metrics {
	m := &Metrics{
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
