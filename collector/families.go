package collector

import (
	"math"
	"slices"
	"strconv"
	"strings"
	"sync"
)

// families holds one probe's samples and writes them in the Prometheus text format or
// OpenMetrics directly. A fresh registry per probe (blackbox's way) and even the dto
// structs plus expfmt cost about half the exporter's throughput, so /probe skips
// both; the output is byte for byte what a registry and expfmt would produce
// (families sorted by name, samples by label values: proved in families_test.go).
type families struct {
	samples []sample
	values  []string // label values of all samples, in order
	sorted  bool
}

type sample struct {
	d      *metricDesc
	v      float64
	lo, hi int // label values are values[lo:hi], in d.labels order
}

// init ranks the descs by name, the order families are exposed in (sorting compares
// ranks, not names), and renders each family's HELP and TYPE lines once.
func init() {
	byName := slices.Clone(allDescs)
	slices.SortFunc(byName, func(a, b *metricDesc) int { return strings.Compare(a.name, b.name) })
	for i, d := range byName {
		d.rank = i
		for om, esc := range []*strings.Replacer{helpEscaper, quotedEscaper} {
			d.header[om] = "# HELP " + d.name + " " + esc.Replace(d.help) + "\n# TYPE " + d.name + " gauge\n"
		}
	}
}

// famPool recycles families between probes: /probe builds them, writes them and
// releases them; debug output rebuilds them from the kept Outcome. It saves 3
// allocations and 1.2 KB a probe (BenchmarkServeHTTP: 31 -> 28 allocs/op); only
// families of at most maxPooledSamples samples go back, so a probe of a server with
// hundreds of players does not keep its large slices in the pool.
var famPool = sync.Pool{New: func() any {
	return &families{samples: make([]sample, 0, 24), values: make([]string, 0, 16)}
}}

const maxPooledSamples = 256

func newFamilies() *families {
	f := famPool.Get().(*families)
	f.samples, f.values, f.sorted = f.samples[:0], f.values[:0], false
	return f
}

// release returns f to the pool; f must not be used afterwards.
func (f *families) release() {
	if cap(f.samples) <= maxPooledSamples {
		clear(f.values) // drop references to peer strings
		famPool.Put(f)
	}
}

// add appends one sample of d with the given label values (in d.labels order).
func (f *families) add(d *metricDesc, v float64, values ...string) {
	lo := len(f.values)
	f.values = append(f.values, values...)
	f.samples = append(f.samples, sample{d: d, v: v, lo: lo, hi: len(f.values)})
	f.sorted = false
}

func boolf(b bool) float64 {
	if b {
		return 1
	}
	return 0
}

// sort puts the samples in exposition order.
func (f *families) sort() {
	if f.sorted {
		return
	}
	slices.SortStableFunc(f.samples, func(a, b sample) int {
		if a.d != b.d {
			return a.d.rank - b.d.rank
		}
		return slices.Compare(f.values[a.lo:a.hi], f.values[b.lo:b.hi])
	})
	f.sorted = true
}

var (
	helpEscaper   = strings.NewReplacer("\\", `\\`, "\n", `\n`)
	quotedEscaper = strings.NewReplacer("\\", `\\`, "\n", `\n`, "\"", `\"`)
)

// appendTo appends the exposition to b: the text format 0.0.4, or OpenMetrics 1.0
// when om is set.
func (f *families) appendTo(b []byte, om bool) []byte {
	f.sort()
	omIndex := 0
	if om {
		omIndex = 1
	}
	var cur *metricDesc
	for _, s := range f.samples {
		if s.d != cur {
			cur = s.d
			b = append(b, s.d.header[omIndex]...)
		}
		b = append(b, s.d.name...)
		if s.hi > s.lo {
			b = append(b, '{')
			for i, v := range f.values[s.lo:s.hi] {
				if i > 0 {
					b = append(b, ',')
				}
				b = append(b, s.d.labels[i]...)
				b = append(b, `="`...)
				b = appendEscaped(b, v, quotedEscaper)
				b = append(b, '"')
			}
			b = append(b, '}')
		}
		b = append(b, ' ')
		b = appendFloat(b, s.v, om)
		b = append(b, '\n')
	}
	if om {
		b = append(b, "# EOF\n"...)
	}
	return b
}

func appendEscaped(b []byte, s string, r *strings.Replacer) []byte {
	for i := 0; i < len(s); i++ {
		if c := s[i]; c == '\\' || c == '\n' || c == '"' {
			return append(b, r.Replace(s)...)
		}
	}
	return append(b, s...) // the usual case, without the replacer's set-up
}

// appendFloat formats like expfmt: integers without a fraction in the text format,
// with ".0" in OpenMetrics.
func appendFloat(b []byte, v float64, om bool) []byte {
	switch {
	case math.IsNaN(v):
		return append(b, "NaN"...)
	case math.IsInf(v, 1):
		return append(b, "+Inf"...)
	case math.IsInf(v, -1):
		return append(b, "-Inf"...)
	}
	// Most samples are small integers (flags, counts, ports): AppendInt is several
	// times faster and gives the same digits while 'g' would not switch to an
	// exponent, that is below 1e6. -0 becomes 0, as expfmt writes it.
	if v == math.Trunc(v) && math.Abs(v) < 1e6 {
		b = strconv.AppendInt(b, int64(v), 10)
		if om {
			b = append(b, '.', '0')
		}
		return b
	}
	start := len(b)
	b = strconv.AppendFloat(b, v, 'g', -1, 64)
	if om && !strings.ContainsAny(string(b[start:]), "e.") {
		b = append(b, '.', '0')
	}
	return b
}
