package collector

import (
	"sort"

	dto "github.com/prometheus/client_model/go"
	"google.golang.org/protobuf/proto"
)

// families builds metric families directly, without a registry: a fresh registry per
// probe (blackbox's way) costs about half the exporter's throughput. The output is
// what a registry would gather: families sorted by name, metrics by label values.
type families struct {
	list []*dto.MetricFamily
	by   map[*metricDesc]*dto.MetricFamily
}

func newFamilies() *families { return &families{by: make(map[*metricDesc]*dto.MetricFamily, 16)} }

// add appends one sample of d with the given label values (in d.labels order).
func (f *families) add(d *metricDesc, v float64, values ...string) {
	mf := f.by[d]
	if mf == nil {
		mf = &dto.MetricFamily{Name: proto.String(d.name), Help: proto.String(d.help), Type: &gaugeType}
		f.by[d] = mf
		f.list = append(f.list, mf)
	}
	m := &dto.Metric{Gauge: &dto.Gauge{Value: proto.Float64(v)}}
	if len(d.labels) > 0 {
		m.Label = make([]*dto.LabelPair, len(d.labels))
		for i, name := range d.labels {
			m.Label[i] = &dto.LabelPair{Name: proto.String(name), Value: proto.String(values[i])}
		}
	}
	mf.Metric = append(mf.Metric, m)
}

func boolf(b bool) float64 {
	if b {
		return 1
	}
	return 0
}

// sorted returns the families in exposition order.
func (f *families) sorted() []*dto.MetricFamily {
	sort.Slice(f.list, func(i, j int) bool { return f.list[i].GetName() < f.list[j].GetName() })
	for _, mf := range f.list {
		if len(mf.Metric) > 1 {
			sort.SliceStable(mf.Metric, func(i, j int) bool { return labelsLess(mf.Metric[i].Label, mf.Metric[j].Label) })
		}
	}
	return f.list
}

func labelsLess(a, b []*dto.LabelPair) bool {
	for i := range a {
		if i >= len(b) {
			return false
		}
		if av, bv := a[i].GetValue(), b[i].GetValue(); av != bv {
			return av < bv
		}
	}
	return len(a) < len(b)
}
