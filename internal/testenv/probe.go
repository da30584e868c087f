package testenv

import (
	"bufio"
	"bytes"
	"fmt"
	"io"
	"maps"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"time"

	dto "github.com/prometheus/client_model/go"
	"github.com/prometheus/common/expfmt"
	"github.com/prometheus/common/model"
)

var probeClient = &http.Client{Timeout: 10 * time.Second}

// ProbeBody asks the exporter's /probe with query (module, target, debug) as
// Prometheus does with a 2.5 s scrape timeout (the probe gets 2 s with the
// default --timeout-offset), in the text format; an answer other than 200 is an
// error.
func (e *Exporter) ProbeBody(query url.Values) ([]byte, error) {
	req, err := http.NewRequest(http.MethodGet, e.Base+"/probe?"+query.Encode(), nil)
	if err != nil {
		return nil, err
	}
	req.Header.Set("X-Prometheus-Scrape-Timeout-Seconds", "2.5")
	req.Header.Set("Accept", "text/plain;version=0.0.4")
	resp, err := probeClient.Do(req)
	if err != nil {
		return nil, err
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(io.LimitReader(resp.Body, 1<<20))
	if err == nil && resp.StatusCode != http.StatusOK {
		err = fmt.Errorf("HTTP %s: %s", resp.Status, body)
	}
	return body, err
}

// Probed is a /probe answer, parsed.
type Probed struct {
	Families map[string]*dto.MetricFamily
	Body     string
}

// Probe is ProbeBody parsed.
func (e *Exporter) Probe(query url.Values) (Probed, error) {
	body, err := e.ProbeBody(query)
	if err != nil {
		return Probed{}, err
	}
	p, err := ParseProbed(string(body))
	if err != nil {
		return Probed{}, err
	}
	return p, nil
}

// ParseProbed parses a /probe answer in the text format; on an error, what
// parsed before it.
func ParseProbed(body string) (Probed, error) {
	parser := expfmt.NewTextParser(model.UTF8Validation)
	fams, err := parser.TextToMetricFamilies(strings.NewReader(body))
	if err != nil {
		err = fmt.Errorf("parsing the exposition: %v\n%s", err, body)
	}
	return Probed{fams, body}, err
}

// Value is the value of a metric with a single series.
func (p Probed) Value(name string) (float64, bool) {
	if f := p.Families[name]; f != nil && len(f.Metric) == 1 {
		return seriesValue(f.Metric[0]), true
	}
	return 0, false
}

// Labels are the labels of a metric with a single series, nil otherwise.
func (p Probed) Labels(name string) map[string]string {
	if f := p.Families[name]; f != nil && len(f.Metric) == 1 {
		return seriesLabels(f.Metric[0])
	}
	return nil
}

// Series maps each series of a metric, by its label's value, to its value.
func (p Probed) Series(name, label string) map[string]float64 {
	out := map[string]float64{}
	for _, m := range p.Families[name].GetMetric() {
		out[seriesLabels(m)[label]] = seriesValue(m)
	}
	return out
}

// seriesValue is a text exposition's series value: one of the three is set.
func seriesValue(m *dto.Metric) float64 {
	return m.GetGauge().GetValue() + m.GetCounter().GetValue() + m.GetUntyped().GetValue()
}

func seriesLabels(m *dto.Metric) map[string]string {
	out := map[string]string{}
	for _, l := range m.Label {
		out[l.GetName()] = l.GetValue()
	}
	return out
}

// Decoded asks /probe with debug=true and returns what the debug output lists
// of the server's reply (what has no metric of its own): the "KEY = VALUE" lines
// of the info reply and the "rule KEY = VALUE" lines. Within
// --probe.min-interval of the module's last probe it is that probe's reply.
func (e *Exporter) Decoded(query url.Values) (info, rules map[string]string, err error) {
	q := maps.Clone(query)
	q.Set("debug", "true")
	body, err := e.ProbeBody(q)
	if err != nil {
		return nil, nil, err
	}
	info, rules = map[string]string{}, map[string]string{}
	in := false
	for sc := bufio.NewScanner(bytes.NewReader(body)); sc.Scan(); {
		switch line := sc.Text(); {
		case line == "Decoded reply:":
			in = true
		case in && line == "":
			return info, rules, nil
		case in && !strings.HasPrefix(line, "  player ") && !strings.HasPrefix(line, "  mod ") && !strings.HasPrefix(line, "  phase "):
			to := info
			if rule, ok := strings.CutPrefix(line, "  rule "); ok {
				to, line = rules, rule
			}
			k, v, ok := strings.Cut(strings.TrimPrefix(line, "  "), " = ")
			if uq, err := strconv.Unquote(v); ok && err == nil {
				to[k] = uq
			}
		}
	}
	return nil, nil, fmt.Errorf("no decoded reply in the debug output:\n%s", body)
}
