package web

import (
	"bytes"
	"cmp"
	"crypto/rand"
	"encoding/base64"
	"fmt"
	"html/template"
	"io"
	"net/http"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/prometheus/common/version"

	"github.com/gameserver-exporter/gameserver_exporter/config"
	"github.com/gameserver-exporter/gameserver_exporter/discovery"
	"github.com/gameserver-exporter/gameserver_exporter/protocols/catalog"
)

// PageOptions are the program's name and the flags the status page reflects.
type PageOptions struct {
	Name         string
	RemoteDebug  bool // --web.enable-remote-debug
	Pprof        bool // --web.enable-pprof
	HistoryLimit int
	Reload       bool // --web.enable-reload
	RemoteReload bool // --web.enable-remote-reload
	// Sources lists the discovery sources with their last refresh (nil: none).
	Sources func() []discovery.Status
}

// StatusPage serves the landing page: each recently probed target's last probe,
// failures first, and a form to probe one more. It is rendered per request from
// the history; nothing on the /probe path waits for it.
func StatusPage(sc *config.SafeConfig, history *History, opts PageOptions) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		d := pageData{
			Name:         opts.Name,
			Version:      version.Version,
			Revision:     shortRevision(version.Revision),
			Branch:       version.Branch,
			BuildDate:    version.BuildDate,
			GoVersion:    runtime.Version(),
			Pprof:        opts.Pprof,
			Debug:        DebugAllowed(r, opts.RemoteDebug),
			HistoryLimit: opts.HistoryLimit,
			Groups:       moduleGroups(sc.Get()),
			Refresh:      refreshSeconds(r.URL.Query().Get("refresh")),
			Nonce:        nonce(),
		}
		if opts.Sources != nil {
			d.Sources = sourceViews(opts.Sources(), d.Debug, time.Now())
		}
		now := time.Now()
		for _, t := range history.Targets() {
			if !d.Debug {
				// An error message may quote what a probed service said; callers
				// who may not see debug output get the fixed reason only.
				t.Error = ""
			}
			d.Rows = append(d.Rows, newRowView(t, now))
			if t.Up {
				d.Up++
			} else {
				d.Down++
			}
		}
		var buf bytes.Buffer
		if err := pageTemplate.Execute(&buf, d); err != nil {
			http.Error(w, err.Error(), http.StatusInternalServerError)
			return
		}
		h := w.Header()
		h.Set("Content-Type", "text/html; charset=utf-8")
		h.Set("X-Content-Type-Options", "nosniff")
		h.Set("Cache-Control", "no-store")
		// Server names are escaped by the template; the policy is a second wall:
		// only this page's own inline script and style run, and nothing is loaded
		// from elsewhere (the page works on isolated networks).
		h.Set("Content-Security-Policy", "default-src 'none'; script-src 'nonce-"+d.Nonce+"'; style-src 'nonce-"+d.Nonce+
			"'; form-action 'self'; base-uri 'none'; frame-ancestors 'none'")
		w.Write(buf.Bytes())
	})
}

type pageData struct {
	Name, Version, Revision, Branch, BuildDate, GoVersion string

	Pprof, Debug bool
	HistoryLimit int
	Groups       []moduleGroup
	Rows         []rowView
	Up, Down     int
	Refresh      int
	Nonce        string
	Sources      []sourceView
}

// sourceView is one discovery source's row.
type sourceView struct {
	discovery.Status
	Success, Error string
}

// sourceViews formats the sources' rows; an error may quote what a list sent,
// so, as a probe's, it is shown to callers who may see debug output only.
func sourceViews(st []discovery.Status, debug bool, now time.Time) []sourceView {
	out := make([]sourceView, 0, len(st))
	for _, s := range st {
		v := sourceView{Status: s, Success: "never"}
		if !s.LastSuccess.IsZero() {
			v.Success = formatAge(now.Sub(s.LastSuccess)) + " ago"
		}
		if s.LastError != "" {
			v.Error = "failing"
			if debug {
				v.Error = s.LastError
			}
		}
		out = append(out, v)
	}
	return out
}

type moduleGroup struct {
	Label   string
	Options []moduleOption
}

type moduleOption struct{ Value, Text string }

// moduleGroups sorts the modules for the picker: protocols by name, catalog games by
// the game's name (what a user looks for), and the modules file's own others.
func moduleGroups(c *config.Config) []moduleGroup {
	games := map[string]catalog.Game{}
	for _, g := range catalog.Games {
		games[g.Module] = g
	}
	var protos, catalogGames, others []moduleOption
	for _, name := range c.Names() {
		m := c.Modules[name]
		switch g, isGame := games[name]; {
		case name == m.Protocol:
			protos = append(protos, moduleOption{name, label(name, m.Description)})
		case isGame && g.Protocol == m.Protocol:
			catalogGames = append(catalogGames, moduleOption{name, fmt.Sprintf("%s (%s, %s)", cmp.Or(m.Description, g.Name), name, m.Protocol)})
		default:
			others = append(others, moduleOption{name, label(name, m.Description) + " (" + m.Protocol + ")"})
		}
	}
	slices.SortFunc(catalogGames, func(a, b moduleOption) int { return cmp.Compare(a.Text, b.Text) })
	var out []moduleGroup
	for _, g := range []moduleGroup{{"Games", catalogGames}, {"Protocols", protos}, {"Other modules", others}} {
		if len(g.Options) > 0 {
			out = append(out, g)
		}
	}
	return out
}

func label(name, desc string) string {
	if desc == "" {
		return name
	}
	return name + ": " + desc
}

// rowView is a target's row, formatted. Sort keys are numbers for the script.
type rowView struct {
	TargetStatus
	State, StateClass      string
	Players, Bots          string
	PlayersSort            int64
	Latency                string
	LatencyMicros          int64
	Age, AgeTitle, ForTime string
	// Lifecycle says when the server and its map started, where the protocol says.
	Lifecycle string
	AgeSort   int64
}

func newRowView(t TargetStatus, now time.Time) rowView {
	v := rowView{TargetStatus: t, State: "down", StateClass: "down", Players: "–", Bots: "–", PlayersSort: -1}
	if t.Up {
		v.State, v.StateClass = "up", "up"
		if t.PartialPhase != "" {
			v.State, v.StateClass = "partial", "partial"
		}
	}
	if t.Players.Known || t.MaxPlayers.Known {
		v.Players = countText(t.Players) + " / " + countText(t.MaxPlayers)
		v.PlayersSort = t.Players.Value
	}
	if t.Bots.Known {
		v.Bots = strconv.FormatInt(t.Bots.Value, 10)
	}
	v.Latency = formatLatency(t.Latency)
	v.LatencyMicros = t.Latency.Microseconds()
	v.Age = formatAge(now.Sub(t.When)) + " ago"
	var life []string
	if !t.Started.IsZero() {
		life = append(life, "started "+formatAge(now.Sub(t.Started))+" ago")
	}
	if !t.MapStarted.IsZero() {
		life = append(life, "on this map for "+formatAge(now.Sub(t.MapStarted)))
	}
	v.Lifecycle = strings.Join(life, ", ")
	v.AgeTitle = t.When.UTC().Format("2006-01-02 15:04:05 UTC")
	v.AgeSort = t.When.Unix()
	v.ForTime = formatAge(now.Sub(t.Since))
	return v
}

func formatLatency(d time.Duration) string {
	switch {
	case d < time.Millisecond:
		return fmt.Sprintf("%d µs", d.Microseconds())
	case d < time.Second:
		return fmt.Sprintf("%.1f ms", float64(d)/float64(time.Millisecond))
	default:
		return fmt.Sprintf("%.2f s", d.Seconds())
	}
}

// formatAge says how long ago in at most two units: "42s", "3m 5s", "2h 10m", "4d 3h".
func formatAge(d time.Duration) string {
	d = max(d, 0).Round(time.Second)
	s := int64(d / time.Second)
	switch {
	case s < 60:
		return fmt.Sprintf("%ds", s)
	case s < 3600:
		return fmt.Sprintf("%dm %ds", s/60, s%60)
	case s < 86400:
		return fmt.Sprintf("%dh %dm", s/3600, s%3600/60)
	default:
		return fmt.Sprintf("%dd %dh", s/86400, s%86400/3600)
	}
}

// refreshSeconds reads ?refresh=N: the page reloads itself every N seconds, 5 to
// 3600; anything else means no reload.
func refreshSeconds(s string) int {
	n, err := strconv.Atoi(s)
	if err != nil || n < 5 || n > 3600 {
		return 0
	}
	return n
}

func shortRevision(r string) string {
	if r == "unknown" {
		return ""
	}
	if len(r) > 12 {
		return r[:12]
	}
	return r
}

func nonce() string {
	var b [16]byte
	rand.Read(b[:])
	return base64.RawStdEncoding.EncodeToString(b[:])
}

var pageTemplate = template.Must(template.New("page").Parse(pageHTML))

// pageHTML is the whole page: no external assets, so it renders on networks
// without the internet.
const pageHTML = `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
{{if .Refresh}}<meta http-equiv="refresh" content="{{.Refresh}}">{{end}}
<title>{{.Name}}{{if .Down}} ({{.Down}} down){{end}}</title>
<style nonce="{{.Nonce}}">
:root { --fg:#1d2329; --muted:#66707a; --line:#dde1e5; --bg:#f6f7f9; --card:#fff; --down:#b42318; --downbg:#fdecea; --up:#1a7f37; --warn:#9a6700; --warnbg:#fff8e1; --link:#0b5cad; }
* { box-sizing: border-box; }
body { margin:0; font:14px/1.45 system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; color:var(--fg); background:var(--bg); }
header { display:flex; flex-wrap:wrap; align-items:baseline; gap:.4em 1.5em; padding:.8em 1.5em; background:var(--card); border-bottom:1px solid var(--line); }
header h1 { font-size:1.25em; margin:0; }
header .build { color:var(--muted); font-size:.9em; }
nav { margin-left:auto; display:flex; gap:1em; }
a { color:var(--link); text-decoration:none; }
a:hover { text-decoration:underline; }
main { padding:1em 1.5em; }
section { background:var(--card); border:1px solid var(--line); border-radius:6px; padding:.8em 1em; margin-bottom:1em; }
h2 { font-size:1.05em; margin:0 0 .6em; }
h2 .summary { font-weight:normal; color:var(--muted); margin-left:.5em; }
form { display:flex; flex-wrap:wrap; gap:.6em 1em; align-items:end; }
label { display:flex; flex-direction:column; font-size:.85em; color:var(--muted); gap:.2em; }
label.check { flex-direction:row; align-items:center; padding-bottom:.35em; }
select, input[type=text] { font:inherit; padding:.3em .4em; border:1px solid #b8bfc6; border-radius:4px; color:var(--fg); background:#fff; }
select { max-width:24em; }
input[type=text] { width:18em; }
button { font:inherit; padding:.35em 1.1em; border:1px solid var(--link); background:var(--link); color:#fff; border-radius:4px; cursor:pointer; }
.hint, .note { color:var(--muted); font-size:.85em; margin:.5em 0 0; }
.note { background:var(--warnbg); color:var(--warn); padding:.4em .6em; border-radius:4px; margin:0 0 .6em; }
.bar { display:flex; justify-content:space-between; align-items:baseline; flex-wrap:wrap; gap:.5em; }
.refresh { font-size:.85em; color:var(--muted); }
.refresh b { color:var(--fg); }
table { border-collapse:collapse; width:100%; }
th, td { text-align:left; padding:.35em .6em; border-bottom:1px solid var(--line); vertical-align:top; }
th { font-size:.8em; text-transform:uppercase; letter-spacing:.03em; color:var(--muted); white-space:nowrap; user-select:none; }
th[data-sort] { cursor:pointer; }
th[aria-sort=ascending]::after { content:" ▲"; }
th[aria-sort=descending]::after { content:" ▼"; }
td.num { text-align:right; font-variant-numeric:tabular-nums; white-space:nowrap; }
tr.down td { background:var(--downbg); }
tr.partial td { background:var(--warnbg); }
.badge { display:inline-block; min-width:4.5em; text-align:center; padding:0 .5em; border-radius:1em; font-size:.8em; font-weight:600; text-transform:uppercase; color:#fff; background:var(--up); }
tr.down .badge { background:var(--down); }
tr.partial .badge { background:var(--warn); }
.sub { display:block; color:var(--muted); font-size:.85em; }
.target { font-family:ui-monospace, SFMono-Regular, Menlo, Consolas, monospace; font-size:.92em; }
.reason { font-weight:600; color:var(--down); }
.err { display:block; color:var(--muted); font-size:.85em; max-width:32em; overflow-wrap:anywhere; }
.empty { color:var(--muted); padding:1em 0; }
/* A phone (the on-call person's): no sideways scrolling. Each target becomes a card
   of label: value lines; the header's columns are the labels. */
@media (max-width: 640px) {
  header, main { padding-left:.6em; padding-right:.6em; }
  section { padding:.6em; }
  nav { margin-left:0; flex-wrap:wrap; }
  label, select, input[type=text] { width:100%; max-width:none; }
  table, tbody, tr, td { display:block; width:100%; }
  thead { display:none; }
  tr { border:1px solid var(--line); border-radius:6px; margin-bottom:.6em; }
  td { border-bottom:none; padding:.15em .6em; overflow-wrap:anywhere; }
  td.num { text-align:left; }
  td[data-label]::before { content:attr(data-label) ": "; color:var(--muted); font-size:.8em; text-transform:uppercase; }
  td:empty { display:none; }
  .err { max-width:none; }
}
</style>
</head>
<body>
<header>
<h1>{{.Name}}</h1>
<span class="build">version {{or .Version "unknown"}}{{if .Revision}} · revision {{.Revision}}{{end}}{{if .Branch}} · branch {{.Branch}}{{end}}{{if .BuildDate}} · built {{.BuildDate}}{{end}} · {{.GoVersion}}</span>
<nav>
<a href="/metrics">Metrics</a>
<a href="/modules">Modules</a>
<a href="/config">Configuration</a>
<a href="/-/healthy">Health</a>
{{if .Pprof}}<a href="/debug/pprof/">Profiler</a>{{end}}
</nav>
</header>
<main>
<section>
<h2>Probe a server</h2>
<form id="probe" action="/probe" method="get" target="_blank">
<label>Module
<select name="module" id="module" required>
<option value="">Choose a game or protocol…</option>
{{range .Groups}}<optgroup label="{{.Label}}">
{{range .Options}}<option value="{{.Value}}">{{.Text}}</option>
{{end}}</optgroup>
{{end}}</select></label>
<label>Target
<input type="text" name="target" id="target" required placeholder="host or host:port" autocomplete="off" spellcheck="false"></label>
<label class="check"><input type="checkbox" name="debug" value="true"{{if not .Debug}} disabled{{end}}>&nbsp;debug output</label>
<button type="submit">Probe</button>
</form>
<p class="hint">A game module takes the game's port (the one players connect to) and finds the query port; without a port, the game's default is used. The answer opens in a new tab as Prometheus would see it{{if .Debug}}; with debug output, as a log of every packet{{end}}.</p>
</section>
<section>
<div class="bar">
<h2>Targets<span class="summary">{{len .Rows}} probed recently{{if .Rows}}: {{.Down}} down, {{.Up}} up{{end}}</span></h2>
<span class="refresh">Reload every: {{if eq .Refresh 0}}<b>off</b>{{else}}<a href="/">off</a>{{end}} · {{if eq .Refresh 15}}<b>15 s</b>{{else}}<a href="/?refresh=15">15 s</a>{{end}} · {{if eq .Refresh 60}}<b>60 s</b>{{else}}<a href="/?refresh=60">60 s</a>{{end}}</span>
</div>
{{if not .Debug}}<p class="note" id="debug-note">Debug logs of probes are served to loopback callers only (they show what any service at a probed address sent): open this page on the exporter's host, or start the exporter with --web.enable-remote-debug.</p>{{end}}
{{if .Rows}}<table id="targets">
<thead><tr>
<th data-sort="text">State</th><th data-sort="text">Module</th><th data-sort="text">Target</th><th data-sort="text">Server</th><th data-sort="text">Map</th>
<th data-sort="num">Players</th><th data-sort="num">Bots</th><th data-sort="num">Latency</th><th data-sort="text">Failure</th><th data-sort="num">Last probe</th>{{if .Debug}}<th>Log</th>{{end}}
</tr></thead>
<tbody>
{{range .Rows}}<tr class="{{.StateClass}}">
<td data-v="{{.StateClass}}"><span class="badge">{{.State}}</span><span class="sub">for {{.ForTime}}</span></td>
<td data-label="Module">{{.Module}}{{if .Answered}}<span class="sub answered">{{.Answered}}</span>{{end}}</td>
<td class="target" data-label="Target">{{.Target}}</td>
<td class="server" data-label="Server">{{.Name}}{{if .Game}}<span class="sub">{{.Game}}</span>{{end}}{{if .Lifecycle}}<span class="sub">{{.Lifecycle}}</span>{{end}}</td>
<td data-label="Map">{{.Map}}</td>
<td class="num" data-label="Players" data-v="{{.PlayersSort}}">{{.Players}}</td>
<td class="num" data-label="Bots" data-v="{{if .TargetStatus.Bots.Known}}{{.TargetStatus.Bots.Value}}{{else}}-1{{end}}">{{.Bots}}</td>
<td class="num" data-label="Latency" data-v="{{.LatencyMicros}}">{{.Latency}}</td>
<td data-label="Failure">{{if .Reason}}<span class="reason">{{.Reason}}</span><span class="err">{{.Error}}</span>{{else if .PartialPhase}}<span class="reason">{{.PartialPhase}} phase failed</span>{{end}}</td>
<td class="num" data-label="Last probe" data-v="{{.AgeSort}}" title="{{.AgeTitle}}">{{.Age}}</td>
{{if $.Debug}}<td data-label="Log">{{if .Kept}}<a href="/logs?id={{.ID}}">log</a>{{else}}<span class="sub" title="no longer kept: the history holds the last {{$.HistoryLimit}} successes and {{$.HistoryLimit}} failures">–</span>{{end}}</td>{{end}}
</tr>
{{end}}</tbody>
</table>
<p class="hint">Failures first. Click a column to sort. The table keeps the targets probed most recently (each module and target once).</p>
{{else}}<p class="empty">No probes yet. Probe a server with the form above, or let Prometheus scrape /probe?module=…&amp;target=… (see the README).</p>{{end}}
</section>
{{if .Sources}}<section>
<h2>Discovery sources<span class="summary">served on /sd?source=NAME</span></h2>
<table id="sources">
<thead><tr><th>Source</th><th>Type</th><th>Module</th><th>Last success</th><th>Entries</th><th>Targets</th><th>Failures</th><th>Last refresh</th></tr></thead>
<tbody>
{{range .Sources}}<tr{{if .Error}} class="down"{{end}}>
<td class="target">{{if .Builtin}}{{.Name}} (built-in){{else}}<a href="/sd?source={{.Name}}">{{.Name}}</a>{{end}}</td><td>{{.Type}}</td><td>{{.Module}}</td><td>{{.Success}}</td>
<td class="num">{{.Entries}}{{if .Capped}} (capped){{end}}</td><td class="num">{{.Targets}}</td><td class="num">{{.Failures}}</td>
<td>{{if .Error}}<span class="reason">failed</span><span class="err">{{.Error}}</span>{{else if .LastAttempt.IsZero}}pending{{else}}ok{{end}}</td>
</tr>
{{end}}</tbody>
</table>
</section>{{end}}
</main>
<script nonce="{{.Nonce}}">
(function () {
  // The module last probed from this tab is chosen again.
  var sel = document.getElementById("module");
  try {
    var last = sessionStorage.getItem("gse-module");
    if (last && sel.querySelector('option[value="' + CSS.escape(last) + '"]')) sel.value = last;
    document.getElementById("probe").addEventListener("submit", function () { sessionStorage.setItem("gse-module", sel.value); });
  } catch (e) {}
  var t = document.getElementById("targets");
  if (!t) return;
  var ths = t.tHead.rows[0].cells;
  function key(row, i) {
    var c = row.cells[i];
    return c.hasAttribute("data-v") ? c.getAttribute("data-v") : c.textContent.trim().toLowerCase();
  }
  function sortBy(i, dir) {
    var num = ths[i].getAttribute("data-sort") === "num";
    var rows = Array.prototype.slice.call(t.tBodies[0].rows);
    rows.sort(function (a, b) {
      var x = key(a, i), y = key(b, i);
      var d = num ? Number(x) - Number(y) : x.localeCompare(y);
      return d * dir;
    });
    rows.forEach(function (r) { t.tBodies[0].appendChild(r); });
    for (var j = 0; j < ths.length; j++) ths[j].removeAttribute("aria-sort");
    ths[i].setAttribute("aria-sort", dir > 0 ? "ascending" : "descending");
    try { sessionStorage.setItem("gse-sort", i + "," + dir); } catch (e) {}
  }
  Array.prototype.forEach.call(ths, function (th, i) {
    if (!th.hasAttribute("data-sort")) return;
    th.tabIndex = 0;
    var go = function () { sortBy(i, th.getAttribute("aria-sort") === "ascending" ? -1 : 1); };
    th.addEventListener("click", go);
    th.addEventListener("keydown", function (e) { if (e.key === "Enter") go(); });
  });
  try {
    var s = (sessionStorage.getItem("gse-sort") || "").split(",");
    if (s.length === 2 && ths[+s[0]] && ths[+s[0]].hasAttribute("data-sort")) sortBy(+s[0], +s[1] < 0 ? -1 : 1);
  } catch (e) {}
})();
</script>
</body>
</html>
`

// WriteModules lists every module in force as a table: the game catalog and the
// protocols, with what a target without a port gets and where the query goes.
func WriteModules(w io.Writer, c *config.Config) {
	tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "MODULE\tPROTOCOL\tTRANSPORT\tGAME PORT\tQUERY PORT OFFSETS\tDESCRIPTION")
	for _, name := range c.Names() {
		m := c.Modules[name]
		p := m.Descriptor()
		fmt.Fprintf(tw, "%s\t%s\t%s\t%d\t%v\t%s\n", name, m.Protocol, p.Transport, m.DefaultPort(), m.QueryPortOffsets(), m.Description)
	}
	tw.Flush()
}
