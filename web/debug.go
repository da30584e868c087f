package web

import (
	"cmp"
	"fmt"
	"io"
	"net/http"
	"slices"
	"strconv"
	"time"

	"github.com/gameserver-exporter/gameserver_exporter/collector"
	"github.com/gameserver-exporter/gameserver_exporter/config"
	"github.com/gameserver-exporter/gameserver_exporter/protocols"
	"github.com/gameserver-exporter/gameserver_exporter/protocols/wire"
)

// WriteDebug writes a probe's debug output, as /probe?debug=true shows it: log
// lines, the decoded reply, the metrics that would have been returned, the module's
// config and a hex dump of every packet.
func WriteDebug(w io.Writer, o *collector.Outcome) { writeDebug(w, o) }

func writeDebug(w io.Writer, o *collector.Outcome) {
	// Server strings are everywhere in it (log lines, errors, keys): escape their
	// control characters and bidi overrides on the way out.
	w = collector.PrintableWriter(w)
	switch {
	case o.Cached:
		fmt.Fprintf(w, "Served from cache: this target was probed at %s (cache_ttl or --probe.min-interval).\n\n", o.When.UTC().Format(time.RFC3339Nano))
	case o.Shared:
		fmt.Fprintf(w, "Shared: a concurrent probe of the same target answered this request.\n\n")
	}
	fmt.Fprintf(w, "Logs for the probe:\n")
	for _, l := range logLines(o) {
		fmt.Fprintf(w, "%s +%s %s\n", o.When.Add(l.At).UTC().Format(time.RFC3339Nano), l.At.Round(time.Microsecond), collector.Printable(l.Msg))
	}
	if o.Err != nil {
		fmt.Fprintf(w, "\nFailure reason: %s\nError: %s\n", wire.Reason(o.Err), collector.Printable(o.Err.Error()))
	}
	if r := o.Result; r != nil {
		fmt.Fprintf(w, "\nDecoded reply:\n")
		for _, kv := range r.InfoKV() {
			fmt.Fprintf(w, "  %s = %q\n", collector.Printable(kv.Key), kv.Value)
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
			fmt.Fprintf(w, "  rule %s = %q\n", collector.Printable(kv.Key), kv.Value)
		}
		for _, m := range r.Mods {
			fmt.Fprintf(w, "  mod %q id=%q\n", m.Name, m.ID)
		}
		if t := o.Trimmed; t != [3]int{} {
			fmt.Fprintf(w, "  (the history keeps %d of %d players, %d of %d rules, %d of %d mods)\n",
				len(r.PlayerList), t[0], len(r.Rules), t[1], len(r.Mods), t[2])
		}
		for _, pe := range r.PhaseErrors {
			fmt.Fprintf(w, "  phase %s failed: %s\n", pe.Phase, collector.Printable(fmt.Sprint(pe.Err)))
		}
	}
	fmt.Fprintf(w, "\nMetrics that would have been returned:\n")
	w.Write(collector.Append(nil, o, false))
	fmt.Fprintf(w, "\nModule configuration:\n%s", config.ModuleYAML(o.Module))
	fmt.Fprintf(w, "\nPackets:\n")
	o.Trace.WriteTranscript(w)
}

func countText(c protocols.Count) string {
	if !c.Known {
		return "?"
	}
	return strconv.FormatInt(c.Value, 10)
}

// DebugHandler serves the debug output of a probe kept in the history (?id=N), to
// loopback callers unless remote is set (see DebugAllowed).
func (h *History) DebugHandler(remote bool) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if !DebugAllowed(r, remote) {
			http.Error(w, debugRefused, http.StatusForbidden)
			return
		}
		id, err := strconv.ParseInt(r.URL.Query().Get("id"), 10, 64)
		if err != nil {
			http.Error(w, "id parameter must be a number", http.StatusBadRequest)
			return
		}
		o := h.Get(id)
		if o == nil {
			http.Error(w, "probe not found: it is no longer kept in the history", http.StatusNotFound)
			return
		}
		setDebugHeaders(w)
		writeDebug(w, o)
	})
}

// logLines tells the story of a probe from its outcome, with the protocol's own log
// lines in between.
func logLines(o *collector.Outcome) []wire.Entry {
	var out []wire.Entry
	add := func(at time.Duration, format string, args ...any) {
		out = append(out, wire.Entry{At: at, Msg: fmt.Sprintf(format, args...)})
	}
	add(0, "Beginning probe: module=%s protocol=%s host=%s port=%d timeout=%s", o.ModuleName, o.Module.Protocol, o.Host, o.Port, o.Budget)
	var at time.Duration
	if o.Trace != nil {
		for _, p := range o.Trace.Phases {
			at += p.Duration
			switch {
			case p.Name == "resolve" && p.Err == nil && o.Addr.IsValid():
				add(at, "Resolved %s to %s", o.Host, o.Addr.Addr())
			case p.Err != nil:
				add(at, "Phase %s failed after %s: %v", p.Name, p.Duration.Round(time.Microsecond), p.Err)
			default:
				add(at, "Phase %s done in %s", p.Name, p.Duration.Round(time.Microsecond))
			}
		}
		out = append(out, o.Trace.Entries...)
		slices.SortStableFunc(out, func(a, b wire.Entry) int { return cmp.Compare(a.At, b.At) })
	}
	switch {
	case o.Policy != nil:
		add(o.Duration, "Target refused by target_policy: %v", o.Policy)
	case o.Err != nil:
		add(o.Duration, "Probe failed after %s: reason=%s, error: %v", o.Duration.Round(time.Microsecond), wire.Reason(o.Err), o.Err)
	default:
		for _, pe := range o.Result.PhaseErrors {
			add(o.Duration, "Phase %s failed (the server is up): %v", pe.Phase, pe.Err)
		}
		add(o.Duration, "Probe succeeded after %s", o.Duration.Round(time.Microsecond))
	}
	return out
}
