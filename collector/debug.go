package collector

import (
	"fmt"
	"html"
	"io"
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/prometheus/common/expfmt"

	"github.com/gameserver-exporter/gameserver_exporter/config"
	"github.com/gameserver-exporter/gameserver_exporter/protocols"
)

func reasonText(err error) string {
	if err == nil {
		return ""
	}
	return protocols.Reason(err)
}

// writeDebug writes a probe's debug output: log lines, the decoded reply, the metrics
// that would have been returned, the module's config and a hex dump of every packet.
func writeDebug(w io.Writer, e *Entry) {
	o := e.outcome
	switch {
	case o.cached:
		fmt.Fprintf(w, "Served from cache: this target was probed at %s (cache_ttl or --probe.min-interval).\n\n", o.when.UTC().Format(time.RFC3339Nano))
	case o.shared:
		fmt.Fprintf(w, "Shared: a concurrent probe of the same target answered this request.\n\n")
	}
	fmt.Fprintf(w, "Logs for the probe:\n")
	for _, l := range o.trace.Entries {
		fmt.Fprintf(w, "%s +%s %s\n", o.trace.Start.Add(l.At).UTC().Format(time.RFC3339Nano), l.At.Round(time.Microsecond), l.Msg)
	}
	if o.err != nil {
		fmt.Fprintf(w, "\nFailure reason: %s\nError: %v\n", protocols.Reason(o.err), o.err)
	}
	if r := o.result; r != nil {
		fmt.Fprintf(w, "\nDecoded reply:\n")
		for _, kv := range r.Info {
			fmt.Fprintf(w, "  %s = %q\n", kv.Key, kv.Value)
		}
		for i, p := range r.PlayerList {
			fmt.Fprintf(w, "  player %d: %q score=%s ping=%s", i, p.Name, countText(p.Score), countText(p.Ping))
			if p.DurationKnown {
				fmt.Fprintf(w, " connected=%.1fs", p.Duration)
			}
			if p.Team != "" {
				fmt.Fprintf(w, " team=%q", p.Team)
			}
			if p.Bot {
				fmt.Fprint(w, " bot")
			}
			fmt.Fprintln(w)
		}
		for _, kv := range r.Rules {
			fmt.Fprintf(w, "  rule %s = %q\n", kv.Key, kv.Value)
		}
		for _, pe := range r.PhaseErrors {
			fmt.Fprintf(w, "  phase %s failed: %v\n", pe.Phase, pe.Err)
		}
	}
	fmt.Fprintf(w, "\nMetrics that would have been returned:\n")
	enc := expfmt.NewEncoder(w, expfmt.NewFormat(expfmt.TypeTextPlain))
	for _, mf := range e.families {
		enc.Encode(mf)
	}
	fmt.Fprintf(w, "\nModule configuration:\n%s", config.ModuleYAML(o.module))
	fmt.Fprintf(w, "\nPackets:\n")
	o.trace.WriteTranscript(w)
}

func countText(c protocols.Count) string {
	if !c.Known {
		return "?"
	}
	return strconv.FormatInt(c.Value, 10)
}

// DebugHandler serves the debug output of a probe kept in the history (?id=N).
func (h *History) DebugHandler() http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		id, err := strconv.ParseInt(r.URL.Query().Get("id"), 10, 64)
		if err != nil {
			http.Error(w, "id parameter must be a number", http.StatusBadRequest)
			return
		}
		e := h.Get(id)
		if e == nil {
			http.Error(w, "probe not found: it is no longer kept in the history", http.StatusNotFound)
			return
		}
		w.Header().Set("Content-Type", "text/plain; charset=utf-8")
		writeDebug(w, e)
	})
}

// HTML renders the recent probes as a table for the landing page. Peer strings are
// escaped: a target or reason is never trusted HTML.
func (h *History) HTML(prefix string) string {
	var b strings.Builder
	b.WriteString(`<h2>Recent probes</h2><table border="1" cellpadding="4"><tr><th>Module</th><th>Target</th><th>Result</th><th>Duration</th><th>Debug</th></tr>`)
	for _, e := range h.List() {
		result := "success"
		if !e.Success {
			result = "failure: " + e.Reason
		}
		fmt.Fprintf(&b, `<tr><td>%s</td><td>%s</td><td>%s</td><td>%s</td><td><a href="%slogs?id=%d">logs</a></td></tr>`,
			html.EscapeString(e.Module), html.EscapeString(e.Target), html.EscapeString(result),
			e.Duration.Round(time.Microsecond), html.EscapeString(prefix), e.ID)
	}
	b.WriteString(`</table>`)
	return b.String()
}
