package web

import (
	"errors"
	"fmt"
	"maps"
	"strings"
	"testing"
	"time"
	"unicode/utf8"
	"unsafe"

	"github.com/gameserver-exporter/gameserver_exporter/collector"
	"github.com/gameserver-exporter/gameserver_exporter/config"
	"github.com/gameserver-exporter/gameserver_exporter/discovery"
	"github.com/gameserver-exporter/gameserver_exporter/protocols"
	"github.com/gameserver-exporter/gameserver_exporter/protocols/prototest"
	"github.com/gameserver-exporter/gameserver_exporter/protocols/wire"
)

func renderStatus(t *testing.T, sc *config.SafeConfig, h *History, remoteAddr string, opts PageOptions) string {
	t.Helper()
	rec := serveFrom(StatusPage(sc, h, opts), "GET", "/?refresh=15", remoteAddr, "localhost:10115", nil)
	if rec.Code != 200 {
		t.Fatalf("status %d", rec.Code)
	}
	if csp := rec.Header().Get("Content-Security-Policy"); !strings.Contains(csp, "default-src 'none'") || !strings.Contains(csp, "script-src 'nonce-") {
		t.Errorf("Content-Security-Policy: %q", csp)
	}
	return rec.Body.String()
}

// TestStatusPage: what a remote caller and the operator on the host see: debug
// output and what a server or a list sent (a banner) are the operator's; auto rows
// say what answered; start times where reported (issue 27); discovery sources.
func TestStatusPage(t *testing.T) {
	sc := builtins(t)
	mods := sc.Get().Modules
	h := NewHistory(10)
	auto := upOutcome("Valheim server", 3)
	auto.Module, auto.Port = mods["auto"], 2456
	auto.Result.Protocol, auto.Result.QueryPort = "a2s", 2457
	h.Add(named("auto", "192.0.2.1:2456", auto))
	plain := upOutcome("CS server", 3) // no uptime: no start time
	plain.Module, plain.Port = mods["a2s"], 27015
	h.Add(named("a2s", "192.0.2.2:27015", plain))
	down := downOutcome()
	down.Module, down.Port = mods["auto"], 27960
	h.Add(named("auto", "192.0.2.3:27960", down))
	h.Add(&collector.Outcome{Module: mods["hytale"], ModuleName: "hytale", Target: "127.0.0.1:22",
		Err: fmt.Errorf("%w: reply %q", wire.ErrMalformed, "SSH-2.0-secret-banner"), When: time.Now()})
	h.Add(&collector.Outcome{Module: mods["palworld"], ModuleName: "palworld", Target: "127.0.0.1:8212", When: time.Now(),
		Result: &protocols.Result{Name: "Pals", Uptime: protocols.SpanSeconds(3 * 3600), MapTime: protocols.SpanSeconds(20 * 60)}})
	got := map[string]string{}
	for _, ts := range h.Targets() {
		got[ts.Target] = ts.Answered
	}
	want := map[string]string{"192.0.2.1:2456": "a2s on port 2457", "192.0.2.2:27015": "", "192.0.2.3:27960": "", "127.0.0.1:22": "", "127.0.0.1:8212": ""}
	if !maps.Equal(got, want) {
		t.Errorf("answered %q, want %q", got, want)
	}
	sources := func() []discovery.Status {
		return []discovery.Status{
			{Name: "community_oa", Type: "quake3", Module: "openarena", Entries: 1200, Targets: 40,
				LastSuccess: time.Now().Add(-90 * time.Second), LastAttempt: time.Now()},
			{Name: "ddnet", Type: "ddnet", Module: "ddnet", LastAttempt: time.Now(), Failures: 3,
				LastError: "malformed: JSON at offset 7: <secret list page>"},
			{Name: "beammp", Type: "http_json", Builtin: true, Entries: 900, LastSuccess: time.Now(), LastAttempt: time.Now()},
		}
	}

	remote := renderStatus(t, sc, h, "192.0.2.7:40000", PageOptions{HistoryLimit: 10, Sources: sources})
	prototest.WantAll(t, remote, `id="debug-note"`, "--web.enable-remote-debug", `name="debug" value="true" disabled`,
		`<span class="reason">malformed</span>`, `auto<span class="sub answered">a2s on port 2457</span>`, `data-label="Players"`,
		"@media (max-width: 640px)", "started 3h 0m ago", "on this map for 20m",
		"Discovery sources", `<a href="/sd?source=community_oa">community_oa</a>`, "<td>1m 3", ">1200<", ">40<", "never", "failing",
		`<td class="target">beammp (built-in)</td>`)
	for _, hidden := range []string{"/debug/pprof/", "secret-banner", "secret list page", "/sd?source=beammp"} {
		if strings.Contains(remote, hidden) { // /sd does not serve a built-in list
			t.Errorf("a remote caller sees %q", hidden)
		}
	}
	if strings.Count(remote, "started ") != 1 {
		t.Errorf("a server without uptime got a start time:\n%s", remote)
	}
	local := renderStatus(t, sc, h, "127.0.0.1:40000", PageOptions{Pprof: true, HistoryLimit: 10, Sources: sources})
	prototest.WantAll(t, local, `href="/debug/pprof/"`, `<meta http-equiv="refresh" content="15">`,
		`<optgroup label="Games">`, `<optgroup label="Protocols">`, `<option value="valheim">Valheim (valheim, a2s)</option>`,
		"secret-banner", "malformed: JSON at offset 7: &lt;secret list page&gt;")
	if strings.Contains(local, `id="debug-note"`) {
		t.Error("debug note shown to a loopback caller")
	}
	if open := renderStatus(t, sc, NewHistory(10), "192.0.2.7:40000", PageOptions{RemoteDebug: true}); strings.Contains(open, `id="debug-note"`) {
		t.Error("debug note shown with --web.enable-remote-debug")
	}
	if none := renderStatus(t, sc, h, "127.0.0.1:40000", PageOptions{HistoryLimit: 10}); strings.Contains(none, "Discovery sources") {
		t.Error("a sources section without sources")
	}
}

func TestFormatAge(t *testing.T) {
	for d, want := range map[time.Duration]string{
		-time.Second: "0s", 42 * time.Second: "42s", 185 * time.Second: "3m 5s",
		2*time.Hour + 10*time.Minute: "2h 10m", 99 * time.Hour: "4d 3h",
	} {
		if got := formatAge(d); got != want {
			t.Errorf("formatAge(%v) = %q, want %q", d, got, want)
		}
	}
	for s, want := range map[string]int{"": 0, "15": 15, "1": 0, "99999": 0, "x": 0} {
		if got := refreshSeconds(s); got != want {
			t.Errorf("refreshSeconds(%q) = %d, want %d", s, got, want)
		}
	}
}

func upOutcome(name string, players int64) *collector.Outcome {
	return &collector.Outcome{When: time.Now(), Duration: time.Millisecond, Result: &protocols.Result{
		Name: name, Map: "de_dust2", Game: "csgo",
		Players: protocols.Known(players), MaxPlayers: protocols.Known(16), Bots: protocols.Known(1),
	}}
}

func downOutcome() *collector.Outcome {
	return &collector.Outcome{When: time.Now(), Duration: time.Second, Err: fmt.Errorf("%w: no reply", wire.ErrTimeout)}
}

// named sets the module name and target of o, as Runner.Run does.
func named(module, target string, o *collector.Outcome) *collector.Outcome {
	o.ModuleName, o.Target = module, target
	return o
}

func targetKeys(ts []TargetStatus) string {
	var b []string
	for _, t := range ts {
		b = append(b, t.Module+"/"+t.Target)
	}
	return strings.Join(b, " ")
}

// TestTargetsOrder: one row per module and target, failures first, then by module
// and target; a row holds the last probe.
func TestTargetsOrder(t *testing.T) {
	h := NewHistory(10)
	h.Add(named("quake3", "b:1", upOutcome("Q", 3)))
	h.Add(named("a2s", "z:1", upOutcome("Z", 1)))
	h.Add(named("a2s", "a:1", downOutcome()))
	h.Add(named("a2s", "z:1", upOutcome("Z2", 2))) // same target again: one row
	h.Add(named("quake3", "b:1", downOutcome()))
	got := h.Targets()
	if want := "a2s/a:1 quake3/b:1 a2s/z:1"; targetKeys(got) != want {
		t.Fatalf("order %q, want %q", targetKeys(got), want)
	}
	if z := got[2]; !z.Up || z.Name != "Z2" || z.Players.Value != 2 || z.MaxPlayers.Value != 16 || z.Bots.Value != 1 || z.Map != "de_dust2" || z.Game != "csgo" {
		t.Errorf("a2s/z:1 row: %+v", z)
	}
	if q := got[1]; q.Up || q.Reason != "timeout" || !strings.Contains(q.Error, "no reply") || q.Players.Known || q.Name != "Q" || q.ID != 5 || !q.Kept {
		t.Errorf("quake3/b:1 row: %+v; want down, the last known name Q, the last probe (5) kept", q)
	}
}

// TestTargetsBounded: past the limit the target probed least recently goes; a
// target probed again is recent again.
func TestTargetsBounded(t *testing.T) {
	h := NewHistory(10)
	h.targets.limit = 3
	for i := range 3 {
		h.Add(named("a2s", fmt.Sprint("t", i), upOutcome("x", 1)))
	}
	h.Add(named("a2s", "t0", upOutcome("x", 1))) // t1 is now the least recent
	h.Add(named("a2s", "t3", upOutcome("x", 1)))
	if got, want := targetKeys(h.Targets()), "a2s/t0 a2s/t2 a2s/t3"; got != want {
		t.Fatalf("kept %q, want %q", got, want)
	}
	for i := range 1000 {
		h.Add(named("a2s", fmt.Sprint("spray", i), downOutcome()))
	}
	linked := 0
	for r := h.targets.head; r != nil; r = r.next {
		linked++
	}
	if len(h.targets.rows) != 3 || linked != 3 {
		t.Errorf("%d rows, %d linked after 1000 new targets, limit 3", len(h.targets.rows), linked)
	}
	if NewHistory(0).targets.limit != 0 || NewHistory(1).targets.limit != MinStatusTargets || NewHistory(1000).targets.limit != 2000 {
		t.Error("statusLimit")
	}
	off := NewHistory(0)
	off.Add(named("a2s", "t", upOutcome("x", 1)))
	if len(off.Targets()) != 0 {
		t.Error("history off: the status table keeps nothing")
	}
}

// TestTargetsSince: Since moves when the state changes, not on every probe.
func TestTargetsSince(t *testing.T) {
	h := NewHistory(10)
	t0 := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	add := func(o *collector.Outcome, at int) {
		o.When = t0.Add(time.Duration(at) * time.Minute)
		h.Add(named("a2s", "t", o))
	}
	add(upOutcome("x", 1), 0)
	add(upOutcome("x", 1), 1)
	if s := h.Targets()[0]; !s.Since.Equal(t0) || !s.When.Equal(t0.Add(time.Minute)) {
		t.Errorf("up twice: since %v when %v", s.Since, s.When)
	}
	add(downOutcome(), 2)
	add(downOutcome(), 3)
	if s := h.Targets()[0]; !s.Since.Equal(t0.Add(2 * time.Minute)) {
		t.Errorf("down since %v, want minute 2", s.Since)
	}
}

// TestTargetsKept: a row links to its debug log only while the history holds it.
func TestTargetsKept(t *testing.T) {
	h := NewHistory(2)
	h.Add(named("a2s", "old", upOutcome("x", 1)))
	h.Add(named("a2s", "down", downOutcome()))
	h.Add(named("a2s", "b", upOutcome("x", 1)))
	h.Add(named("a2s", "c", upOutcome("x", 1))) // the success ring (2) drops "old"
	for _, s := range h.Targets() {
		if want := s.Target != "old"; s.Kept != want || s.Kept && h.Get(s.ID) == nil {
			t.Errorf("%s: kept %v (Get(%d) %v), want %v", s.Target, s.Kept, s.ID, h.Get(s.ID) != nil, want)
		}
	}
}

// TestTargetsStrings: long names are cut on a rune boundary and copied; the same
// name probed again is not copied again.
func TestTargetsStrings(t *testing.T) {
	h := NewHistory(10)
	long := strings.Repeat("é", 200) // 400 bytes
	h.Add(named("a2s", "t", upOutcome(long, 1)))
	s := h.Targets()[0]
	if len(s.Name) > maxNameText || !utf8.ValidString(s.Name) || !strings.HasPrefix(long, s.Name) {
		t.Errorf("name cut to %d bytes, valid %v", len(s.Name), utf8.ValidString(s.Name))
	}
	if unsafe.StringData(s.Name) == unsafe.StringData(long) {
		t.Error("the row pins the reply's string")
	}
	h.Add(named("a2s", "t", upOutcome(strings.Repeat("é", 200), 1)))
	if again := h.Targets()[0]; unsafe.StringData(again.Name) != unsafe.StringData(s.Name) {
		t.Error("the same name was copied again")
	}
	long = strings.Repeat("x", 10000)
	h.Add(named("a2s", "t", &collector.Outcome{Err: fmt.Errorf("%w: %s", wire.ErrMalformed, long)}))
	if e := h.Targets()[0].Error; len(e) > maxErrorText {
		t.Errorf("error text of %d bytes", len(e))
	}
}

// TestTargetsRecordAllocs: recording a probe of a target already in the table,
// with the same strings, allocates nothing.
func TestTargetsRecordAllocs(t *testing.T) {
	var tt targetTable
	tt.limit = 4
	o := named("a2s", "127.0.0.1:27015", upOutcome("same", 3))
	tt.record(1, o.When, o)
	if n := testing.AllocsPerRun(100, func() { tt.record(1, o.When, o) }); n != 0 {
		t.Errorf("%v allocations per record", n)
	}
	fo := named("a2s", "127.0.0.1:27015", &collector.Outcome{Err: errors.New("x")})
	if n := testing.AllocsPerRun(100, func() { tt.record(2, o.When, fo) }); n != 0 {
		t.Errorf("%v allocations per failed record", n)
	}
}
