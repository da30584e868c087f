package discovery

import (
	"github.com/prometheus/client_golang/prometheus"
)

var (
	lastSuccessDesc = prometheus.NewDesc("gameserver_discovery_last_success_timestamp_seconds",
		"When the source's list in use was fetched (absent until a fetch succeeds).", []string{"source"}, nil)
	targetsDesc = prometheus.NewDesc("gameserver_discovery_targets",
		"Servers of the source's list in use that pass its filters: the targets /sd serves.", []string{"source"}, nil)
	entriesDesc = prometheus.NewDesc("gameserver_discovery_entries",
		"Servers of the source's list in use, before filters.", []string{"source"}, nil)
	cappedDesc = prometheus.NewDesc("gameserver_discovery_capped",
		"1 when the source's list in use reached max_targets and servers were dropped.", []string{"source"}, nil)
	failuresDesc = prometheus.NewDesc("gameserver_discovery_refresh_failures_total",
		"Refreshes of the source that failed (the last good list stays in use).", []string{"source"}, nil)
	skippedDesc = prometheus.NewDesc("gameserver_discovery_entries_skipped_total",
		"Entries of the source's lists skipped, by reason (no_address, repeat, malformed, too_large, too_deep): one bad entry costs itself, the rest are served.",
		[]string{"source", "reason"}, nil)
	lastRefreshDesc = prometheus.NewDesc("gameserver_discovery_last_refresh_success",
		"1 when the source's last refresh succeeded, 0 when it failed.", []string{"source"}, nil)
)

// Describe implements prometheus.Collector.
func (m *Manager) Describe(ch chan<- *prometheus.Desc) {
	for _, d := range []*prometheus.Desc{lastSuccessDesc, targetsDesc, entriesDesc, cappedDesc, failuresDesc, skippedDesc, lastRefreshDesc} {
		ch <- d
	}
}

// Collect implements prometheus.Collector: one series of each per source.
func (m *Manager) Collect(ch chan<- prometheus.Metric) {
	for _, st := range m.Statuses() {
		ch <- prometheus.MustNewConstMetric(failuresDesc, prometheus.CounterValue, float64(st.Failures), st.Name)
		for reason, n := range st.Skipped {
			ch <- prometheus.MustNewConstMetric(skippedDesc, prometheus.CounterValue, float64(n), st.Name, reason)
		}
		if !st.LastAttempt.IsZero() {
			ok := 0.0
			if st.LastError == "" {
				ok = 1
			}
			ch <- prometheus.MustNewConstMetric(lastRefreshDesc, prometheus.GaugeValue, ok, st.Name)
		}
		if st.LastSuccess.IsZero() {
			continue
		}
		capped := 0.0
		if st.Capped {
			capped = 1
		}
		ch <- prometheus.MustNewConstMetric(lastSuccessDesc, prometheus.GaugeValue, float64(st.LastSuccess.UnixNano())/1e9, st.Name)
		ch <- prometheus.MustNewConstMetric(targetsDesc, prometheus.GaugeValue, float64(st.Targets), st.Name)
		ch <- prometheus.MustNewConstMetric(entriesDesc, prometheus.GaugeValue, float64(st.Entries), st.Name)
		ch <- prometheus.MustNewConstMetric(cappedDesc, prometheus.GaugeValue, capped, st.Name)
	}
}
