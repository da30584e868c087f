package e2e

import (
	"context"
	"net/http"
	"net/url"
	"os"
	"os/exec"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/gameserver-exporter/gameserver_exporter/internal/testenv"
	"github.com/gameserver-exporter/gameserver_exporter/protocols/prototest"
)

// chromiumPath finds a Chromium or Chrome binary, or skips the test.
func chromiumPath(t *testing.T) string {
	t.Helper()
	for _, name := range []string{"chromium", "chromium-browser", "google-chrome", "headless-shell"} {
		if p, err := exec.LookPath(name); err == nil {
			return p
		}
	}
	t.Skip("no chromium binary (Debian package chromium): skipping the browser test; `make test` installs it as root")
	return ""
}

// TestStatusPageInBrowser renders the landing page in headless Chromium after
// probes of live fakes: one row per target, the failure first, names, players and
// bots, a hostile server name shown as text and never run, sorting by a click, a
// probe made from the page's own form; then 420 px wide, as the on-call person's
// phone would: nothing scrolls sideways, and the row of module auto says which
// protocol and port answered. STATUSPAGE_SCREENSHOT=file.png keeps a screenshot
// (PNG, the wide page) to look at.
func TestStatusPageInBrowser(t *testing.T) {
	chrome := chromiumPath(t)
	// A long name, as they often are, that a phone's card must wrap.
	const hostile = `<script>window.pwned=1</script><b>Evil</b> Arena, with a rather long name [EU] #1 | discord.gg/x`
	evil := prototest.A2SServerNamed(t, hostile).String()
	quake := prototest.Quake3Server(t, "5 20 \"Alice\"\n12 48 \"Bob\"\n").String()
	silent := prototest.Silent(t).String()
	ex := startExporter(t)
	base := ex.Base
	probe(t, ex, "a2s", evil) // 5 players of whom 1 bot: A2S counts 4 humans
	probe(t, ex, "a2s", silent)
	probe(t, ex, "a2s", evil) // a target probed twice is one row

	ctx := browser(t, chrome)
	run := func(what string, steps ...chromedp.Action[chromedp.Void]) {
		t.Helper()
		if err := chromedp.Do(ctx, steps...); err != nil {
			t.Fatalf("%s: %v", what, err)
		}
	}
	rows := func() []pageRow {
		t.Helper()
		rs, err := chromedp.Run(ctx, chromedp.Evaluate[[]pageRow](`Array.from(document.querySelectorAll("#targets tbody tr")).map(r =>
			({Class: r.className, Cells: Array.from(r.cells).map(c => c.innerText.trim())}))`))
		if err != nil {
			t.Fatalf("reading the rows: %v", err)
		}
		return rs
	}
	// Columns: state, module, target, server, map, players, bots, latency, failure, last probe, log.
	const (
		colState, colModule, colTarget, colServer, colMap, colPlayers, colBots, colLatency, colFailure, colAge, colLog = 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10
	)

	run("loading the page", chromedp.Navigate(base+"/"), chromedp.WaitVisible(chromedp.CSS("#targets")))
	got := rows()
	if len(got) != 2 {
		t.Fatalf("%d rows, want 2 (one per target): %+v", len(got), got)
	}
	down, up := got[0], got[1]
	if down.Class != "down" || down.Cells[colTarget] != silent || !strings.HasPrefix(strings.ToLower(down.Cells[colState]), "down") ||
		!strings.Contains(down.Cells[colFailure], "timeout") || down.Cells[colPlayers] != "–" {
		t.Errorf("first row should be the silent target, down with a timeout: %+v", down)
	}
	if up.Class != "up" || up.Cells[colTarget] != evil || up.Cells[colModule] != "a2s" ||
		!strings.HasPrefix(up.Cells[colServer], hostile) || !strings.Contains(up.Cells[colServer], "Counter-Strike") ||
		up.Cells[colMap] != "de_dust2" || up.Cells[colPlayers] != "4 / 16" || up.Cells[colBots] != "1" || up.Cells[colFailure] != "" {
		t.Errorf("second row should be the A2S fake, up, its name as text: %+v", up)
	}
	for _, r := range got {
		if !strings.HasSuffix(r.Cells[colAge], "ago") || r.Cells[colLatency] == "" || r.Cells[colLog] != "log" {
			t.Errorf("row %s: age %q, latency %q, log %q", r.Cells[colTarget], r.Cells[colAge], r.Cells[colLatency], r.Cells[colLog])
		}
	}
	injected, err := chromedp.Run(ctx, chromedp.Evaluate[bool](`window.pwned === 1 || document.querySelectorAll("#targets script, #targets b").length > 0`))
	if err != nil || injected {
		t.Errorf("the server name became markup or ran (err %v)", err)
	}

	// Every link on the page answers; the profiler is not linked without its flag.
	links, err := chromedp.Run(ctx, chromedp.Evaluate[[]string](`Array.from(document.querySelectorAll("a[href]")).map(a => a.href)`))
	if err != nil {
		t.Fatal(err)
	}
	for _, l := range links {
		if strings.Contains(l, "pprof") {
			t.Errorf("profiler linked without --web.enable-pprof: %s", l)
		}
		ok, status := testenv.HTTPOK(&http.Client{Timeout: 10 * time.Second}, l)
		if !ok {
			t.Errorf("link %s: %s", l, status)
		}
	}
	// The form: no preset target, a module picker grouped into games and protocols.
	form, err := chromedp.Run(ctx, chromedp.Evaluate[map[string]any](`({
		target: document.getElementById("target").value,
		placeholder: document.getElementById("target").placeholder,
		module: document.getElementById("module").value,
		groups: Array.from(document.querySelectorAll("#module optgroup")).map(g => g.label),
		valheim: !!document.querySelector('#module option[value="valheim"]'),
	})`))
	if err != nil {
		t.Fatal(err)
	}
	if form["target"] != "" || form["placeholder"] == "" || form["module"] != "" || !form["valheim"].(bool) ||
		!strings.Contains(strings.Join(strsOf(form["groups"]), ","), "Games,Protocols") {
		t.Errorf("form: %v", form)
	}

	// Sorting by players, ascending, puts the row without players first; a second
	// click reverses.
	run("sorting by players", chromedp.Click(chromedp.CSS(`#targets th:nth-child(6)`)))
	if got := rows(); got[0].Cells[colTarget] != silent {
		t.Errorf("ascending by players: first %q", got[0].Cells[colTarget])
	}
	run("sorting by players again", chromedp.Click(chromedp.CSS(`#targets th:nth-child(6)`)))
	if got := rows(); got[0].Cells[colTarget] != evil {
		t.Errorf("descending by players: first %q", got[0].Cells[colTarget])
	}

	// A probe from the form (it opens in a new tab) adds its target's row.
	run("probing from the form",
		chromedp.SetValue(chromedp.CSS("#module"), "quake3"),
		chromedp.SetValue(chromedp.CSS("#target"), quake),
		chromedp.Click(chromedp.CSS(`#probe button`)))
	testenv.WaitFor(t, 30*time.Second, "the form's probe to be recorded", func() (bool, string) {
		run("reloading", chromedp.Navigate(base+"/"), chromedp.WaitVisible(chromedp.CSS("#targets")))
		got := rows()
		return len(got) == 3, strings.Join(rowTargets(got), " ")
	})
	// The sort chosen earlier is kept across the reload (descending players).
	got = rows()
	if want := []string{evil, quake, silent}; strings.Join(rowTargets(got), " ") != strings.Join(want, " ") {
		t.Errorf("after the form probe, rows %v, want %v", rowTargets(got), want)
	}
	for _, r := range got {
		if r.Cells[colTarget] == quake && (r.Cells[colPlayers] != "2 / 12" || !strings.HasPrefix(r.Cells[colServer], "Q3 Test") || r.Cells[colMap] != "q3dm17") {
			t.Errorf("quake3 row: %+v", r)
		}
	}
	// The debug log link of a row answers with that probe's log.
	href, err := chromedp.Run(ctx, chromedp.Evaluate[string](`Array.from(document.querySelectorAll("#targets tbody tr")).find(r => r.className === "down").querySelector("a").href`))
	if err != nil {
		t.Fatal(err)
	}
	if _, b := ex.Get(t, strings.TrimPrefix(href, base)); !strings.Contains(b, "reason=timeout") {
		t.Errorf("log of the failing row (%s): %.300s", href, b)
	}
	if p := os.Getenv("STATUSPAGE_SCREENSHOT"); p != "" {
		shot, err := chromedp.Run(ctx, chromedp.FullScreenshot(100))
		if err != nil || os.WriteFile(p, shot, 0o644) != nil {
			t.Errorf("screenshot: %v", err)
		}
	}

	probe(t, ex, "auto", evil)
	run("loading the page 420 px wide", chromedp.EmulateViewport(420, 900), chromedp.Navigate(base+"/"), chromedp.WaitVisible(chromedp.CSS("#targets")))
	widths, err := chromedp.Run(ctx, chromedp.Evaluate[[]int](`[window.innerWidth, document.documentElement.scrollWidth]`))
	if err != nil {
		t.Fatal(err)
	}
	if widths[0] != 420 || widths[1] > widths[0] {
		t.Errorf("at 420 px wide: window %d px, page %d px, want no sideways scroll", widths[0], widths[1])
	}
	auto, err := chromedp.Run(ctx, chromedp.Evaluate[string](`Array.from(document.querySelectorAll("#targets tbody tr")).map(r => r.innerText).find(s => s.includes("auto")) || ""`))
	if port := evil[strings.LastIndex(evil, ":")+1:]; err != nil || !strings.Contains(auto, "a2s on port "+port) {
		t.Errorf("the auto row does not say which protocol and port answered: %q (err %v)", auto, err)
	}
}

// probe asks ex's /probe for module and target.
func probe(t *testing.T, ex *testenv.Exporter, module, target string) {
	t.Helper()
	if _, err := ex.ProbeBody(url.Values{"module": {module}, "target": {target}}); err != nil {
		t.Fatalf("probe %s %s: %v", module, target, err)
	}
}

// browser starts headless Chromium with a 1500 x 900 window and returns a
// context for chromedp, done after 90 s or with the test.
func browser(t *testing.T, chrome string) context.Context {
	const width, height = 1500, 900
	t.Helper()
	opts := append(chromedp.DefaultExecAllocatorOptions[:], chromedp.ExecPath(chrome),
		chromedp.NoSandbox, // tests may run as root
		chromedp.DisableGPU, chromedp.UserDataDir(t.TempDir()), chromedp.WindowSize(width, height),
		chromedp.Flag("disable-dev-shm-usage", true))
	allocCtx, cancelAlloc := chromedp.NewExecAllocator(context.Background(), opts...)
	t.Cleanup(cancelAlloc)
	bctx, cancelBrowser := chromedp.NewContext(allocCtx)
	t.Cleanup(cancelBrowser)
	// The first Run starts the browser; its context must not carry a timeout.
	if err := chromedp.Do(bctx, chromedp.EmulateViewport(int64(width), int64(height)), chromedp.Navigate("about:blank")); err != nil {
		t.Fatalf("starting %s: %v", chrome, err)
	}
	ctx, cancel := context.WithTimeout(bctx, 90*time.Second)
	t.Cleanup(cancel)
	return ctx
}

// pageRow is a row of the targets table as the browser shows it.
type pageRow struct {
	Class string
	Cells []string
}

func rowTargets(rs []pageRow) []string {
	var out []string
	for _, r := range rs {
		out = append(out, r.Cells[2])
	}
	return out
}
