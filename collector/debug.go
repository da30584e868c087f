package collector

import (
	"cmp"
	"fmt"
	"io"
	"net/http"
	"slices"
	"strconv"
	"time"

	"github.com/gameserver-exporter/gameserver_exporter/config"
	"github.com/gameserver-exporter/gameserver_exporter/protocols"
	"github.com/gameserver-exporter/gameserver_exporter/protocols/wire"
)

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
	for _, l := range logLines(o) {
		fmt.Fprintf(w, "%s +%s %s\n", o.when.Add(l.At).UTC().Format(time.RFC3339Nano), l.At.Round(time.Microsecond), l.Msg)
	}
	if o.err != nil {
		fmt.Fprintf(w, "\nFailure reason: %s\nError: %v\n", protocols.Reason(o.err), o.err)
	}
	if r := o.result; r != nil {
		fmt.Fprintf(w, "\nDecoded reply:\n")
		for _, kv := range r.InfoKV() {
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
		for _, m := range r.Mods {
			fmt.Fprintf(w, "  mod %q id=%q\n", m.Name, m.ID)
		}
		if t := o.trimmed; t != [3]int{} {
			fmt.Fprintf(w, "  (the history keeps %d of %d players, %d of %d rules, %d of %d mods)\n",
				len(r.PlayerList), t[0], len(r.Rules), t[1], len(r.Mods), t[2])
		}
		for _, pe := range r.PhaseErrors {
			fmt.Fprintf(w, "  phase %s failed: %v\n", pe.Phase, pe.Err)
		}
	}
	fmt.Fprintf(w, "\nMetrics that would have been returned:\n")
	w.Write(buildFamilies(e.outcome).appendTo(nil, false))
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
		e := h.Get(id)
		if e == nil {
			http.Error(w, "probe not found: it is no longer kept in the history", http.StatusNotFound)
			return
		}
		setDebugHeaders(w)
		writeDebug(w, e)
	})
}

// logLines tells the story of a probe from its outcome, with the protocol's own log
// lines in between.
func logLines(o *outcome) []wire.Entry {
	var out []wire.Entry
	add := func(at time.Duration, format string, args ...any) {
		out = append(out, wire.Entry{At: at, Msg: fmt.Sprintf(format, args...)})
	}
	add(0, "Beginning probe: module=%s protocol=%s host=%s port=%d timeout=%s", o.name, o.module.Protocol, o.host, o.port, o.budget)
	var at time.Duration
	if o.trace != nil {
		for _, p := range o.trace.Phases {
			at += p.Duration
			switch {
			case p.Name == "resolve" && p.Err == nil && o.addr.IsValid():
				add(at, "Resolved %s to %s", o.host, o.addr.Addr())
			case p.Err != nil:
				add(at, "Phase %s failed after %s: %v", p.Name, p.Duration.Round(time.Microsecond), p.Err)
			default:
				add(at, "Phase %s done in %s", p.Name, p.Duration.Round(time.Microsecond))
			}
		}
		out = append(out, o.trace.Entries...)
		slices.SortStableFunc(out, func(a, b wire.Entry) int { return cmp.Compare(a.At, b.At) })
	}
	switch {
	case o.policy != nil:
		add(o.duration, "Target refused by target_policy: %v", o.policy)
	case o.err != nil:
		add(o.duration, "Probe failed after %s: reason=%s, error: %v", o.duration.Round(time.Microsecond), protocols.Reason(o.err), o.err)
	default:
		for _, pe := range o.result.PhaseErrors {
			add(o.duration, "Phase %s failed (the server is up): %v", pe.Phase, pe.Err)
		}
		add(o.duration, "Probe succeeded after %s", o.duration.Round(time.Microsecond))
	}
	return out
}
