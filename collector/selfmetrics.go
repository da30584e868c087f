package collector

import (
	"time"

	"github.com/prometheus/client_golang/prometheus"
)

// Exporter self-metrics, on /metrics only. The per-probe metrics are package
// exposition's.
const namespace = "gameserver_exporter"

// durationBuckets are the classic buckets of probe_duration_seconds: a loopback
// answer takes a millisecond, a game server across the world a few hundred, and a
// probe may take up to its timeout (5 s by default, the scrape timeout at most).
var durationBuckets = []float64{.001, .0025, .005, .01, .025, .05, .1, .25, .5, 1, 2.5, 5, 10, 30}

// Metrics are the exporter's own metrics.
type Metrics struct {
	// Probes and Duration are what an SLO is built on: a request-based success
	// ratio and a latency histogram, both bounded by modules, not targets.
	Probes         *prometheus.CounterVec // module, result ("success" or the failure reason)
	Duration       *prometheus.HistogramVec
	Failures       *prometheus.CounterVec // deprecated: Probes{result!="success"}
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
			Namespace: namespace, Name: "probes_total", Help: "Probe requests answered, by module and result: success or the failure reason.",
		}, []string{"module", "result"}),
		Duration: prometheus.NewHistogramVec(prometheus.HistogramOpts{
			Namespace: namespace, Name: "probe_duration_seconds",
			Help:    "How long probe requests took to get their outcome (a coalesced or cached one: its wait), by module.",
			Buckets: durationBuckets,
			// Native histograms where the scraper asks for them: the latency SLO's
			// threshold need not be a bucket boundary.
			NativeHistogramBucketFactor:     1.1,
			NativeHistogramMaxBucketNumber:  100,
			NativeHistogramMinResetDuration: time.Hour,
		}, []string{"module"}),
		Failures: prometheus.NewCounterVec(prometheus.CounterOpts{
			Namespace: namespace, Name: "probe_failures_total", Help: "Deprecated, use probes_total{result!=\"success\"}: probes that failed, by module and reason.",
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
	reg.MustRegister(m.Probes, m.Duration, m.Failures, m.UnknownModule, m.PolicyRefusals, m.Coalesced, m.InFlight, m.ReloadSuccess, m.ReloadSeconds)
	return m
}
