package testenv

import (
	"fmt"
	"maps"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"
)

func TestProbe(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		q := r.URL.Query()
		if r.Header.Get("X-Prometheus-Scrape-Timeout-Seconds") != "2.5" {
			http.Error(w, "no scrape timeout", http.StatusBadRequest)
			return
		}
		switch {
		case q.Get("debug") == "true" && q.Get("module") == "ok":
			fmt.Fprint(w, "Logs for the probe:\n...\n\nDecoded reply:\n  name = \"A\\tB\"\n  version = unquoted\n  player 0: \"x\" score=1\n"+
				"  rule mode = \"ffa\"\n  mod \"m\" id=\"1\"\n  phase rules failed: timeout\n\nMetrics that would have been returned:\n")
		case q.Get("debug") == "true":
			fmt.Fprint(w, "Logs for the probe:\n")
		case q.Get("module") == "ok":
			fmt.Fprint(w, "probe_success 1\ngameserver_info{name=\"A\",map=\"m\"} 1\n# TYPE c counter\nc 3\n"+
				"gameserver_player_score{player=\"a\"} 5\ngameserver_player_score{player=\"b\"} 7\n")
		case q.Get("module") == "garbled":
			fmt.Fprint(w, "not an exposition {\n")
		default:
			http.Error(w, "unknown module", http.StatusBadRequest)
		}
	}))
	defer srv.Close()
	e := &Exporter{Base: srv.URL}
	ok := url.Values{"module": {"ok"}, "target": {"127.0.0.1:1"}}

	p, err := e.Probe(ok)
	if err != nil {
		t.Fatal(err)
	}
	if v, found := p.Value("c"); !found || v != 3 {
		t.Errorf("Value(c) = %v, %v", v, found)
	}
	if _, found := p.Value("gameserver_player_score"); found {
		t.Error("Value of a metric with two series")
	}
	if got := p.Labels("gameserver_info"); !maps.Equal(got, map[string]string{"name": "A", "map": "m"}) || p.Labels("absent") != nil {
		t.Errorf("Labels: %v", got)
	}
	if got := p.Series("gameserver_player_score", "player"); !maps.Equal(got, map[string]float64{"a": 5, "b": 7}) || len(p.Series("absent", "x")) != 0 {
		t.Errorf("Series: %v", got)
	}
	info, rules, err := e.Decoded(ok)
	if err != nil || !maps.Equal(info, map[string]string{"name": "A\tB"}) || !maps.Equal(rules, map[string]string{"mode": "ffa"}) {
		t.Errorf("Decoded: info %v, rules %v, %v", info, rules, err)
	}
	if ok.Get("debug") != "" {
		t.Error("Decoded changed the query it was given")
	}

	for _, c := range []struct {
		e      *Exporter
		module string
		want   string
	}{
		{e, "garbled", "parsing the exposition"},
		{e, "unknown", "HTTP 400 Bad Request: unknown module"},
		{&Exporter{Base: "http://[::1"}, "ok", "missing ']'"},
		{&Exporter{Base: "http://127.0.0.1:1"}, "ok", "refused"},
	} {
		if _, err := c.e.Probe(url.Values{"module": {c.module}}); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("Probe of %s at %s: %v, want %q", c.module, c.e.Base, err, c.want)
		}
	}
	if _, _, err := e.Decoded(url.Values{"module": {"other"}}); err == nil || !strings.Contains(err.Error(), "no decoded reply") {
		t.Errorf("Decoded without a reply: %v", err)
	}
	if _, _, err := (&Exporter{Base: "http://127.0.0.1:1"}).Decoded(ok); err == nil || !strings.Contains(err.Error(), "refused") {
		t.Errorf("Decoded of no exporter: %v", err)
	}
}
