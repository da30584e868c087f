package main

import (
	"fmt"
	"net/http"
	"net/netip"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/gameserver-exporter/gameserver_exporter/internal/testenv"
	"github.com/gameserver-exporter/gameserver_exporter/protocols/prototest"
)

// TestDiscoveryEndpoints runs the binary with a discovery source on a fake
// dpmaster that lists one of two fake Quake 3 servers: /sd serves the listed
// one, /metrics the source's state, and a module with listed_in says which
// server is listed.
func TestDiscoveryEndpoints(t *testing.T) {
	listed := prototest.Quake3Server(t, "")
	unlisted := prototest.Quake3Server(t, "")
	master := prototest.UDP(t, func(req []byte) [][]byte { // the source's default query
		if !strings.HasPrefix(string(req), "\xff\xff\xff\xffgetservers 68 ") {
			return nil
		}
		return [][]byte{prototest.GetServersResponse([]netip.AddrPort{listed})}
	})
	path := writeFile(t, filepath.Join(t.TempDir(), "modules.yml"), fmt.Sprintf(`
modules:
  q3:
    protocol: quake3
    listed_in: [community]
  fromlist:
    protocol: list
    list: {source: community}
discovery:
  community:
    type: quake3
    address: %s
    module: q3
    refresh: 1m
    timeout: 2s
`, master))
	e := startExporter(t, "--config.file="+path)

	code, body := firstSD(t, e, "community")
	want := fmt.Sprintf(`[{"targets":["%s"],"labels":{"source":"community","__param_module":"q3"}}]`, listed)
	if code != 200 || strings.TrimSpace(body) != want {
		t.Fatalf("/sd: %d %s\nwant %s", code, body, want)
	}
	if code, body := e.Get(t, "/sd?source=nope"); code != 404 || !strings.Contains(body, "known: community") {
		t.Errorf("unknown source: %d %s", code, body)
	}
	_, metrics := e.Get(t, "/metrics")
	wantAll(t, metrics, `gameserver_discovery_targets{source="community"} 1`, `gameserver_discovery_last_refresh_success{source="community"} 1`)
	_, mods := e.Get(t, "/modules")
	wantAll(t, mods, "SOURCE", "LAST SUCCESS", "community  quake3  q3")
	for _, l := range strings.Split(mods, "\n") {
		if strings.HasPrefix(l, "community ") && strings.Contains(l, "never") {
			t.Errorf("/modules: the source's fetch is not shown: %s", l)
		}
	}
	for _, c := range []struct {
		target netip.AddrPort
		want   string
	}{{listed, "1"}, {unlisted, "0"}} {
		_, probe := e.Get(t, "/probe?module=q3&target="+c.target.String())
		wantAll(t, probe, "probe_success 1", `gameserver_listed{source="community"} `+c.want)
		// Protocol list reads the same list: listed is up, unlisted is not_listed.
		_, probe = e.Get(t, "/probe?module=fromlist&target="+c.target.String())
		if c.want == "1" {
			wantAll(t, probe, "probe_success 1")
		} else {
			wantAll(t, probe, "probe_success 0", `probe_failure_info{reason="not_listed"} 1`)
		}
	}
}

// TestDiscoveryPresetOverride: a list-lookup module (beammp) whose source the
// modules file defines, as a preset at another URL (a loopback fake), reads
// that source: the definition wins over the built-in list and is fetched at
// start, /sd serves it, /modules shows it.
func TestDiscoveryPresetOverride(t *testing.T) {
	srv, _ := prototest.HTTP(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		fmt.Fprint(w, `[{"ip": "192.0.2.10", "port": "30814", "sname": "^4Drift", "map": "gridmap", "players": "3", "maxplayers": "8", "password": false}]`)
	}), false)
	path := writeFile(t, filepath.Join(t.TempDir(), "modules.yml"), fmt.Sprintf("discovery:\n  beammp: {preset: beammp, url: %q, module: beammp, refresh: 1m}\n", srv.URL+"/servers-info"))
	e := startExporter(t, "--config.file="+path)

	code, body := firstSD(t, e, "beammp")
	if code != 200 || !strings.Contains(body, `"192.0.2.10:30814"`) || !strings.Contains(body, `"__meta_gameserver_name":"Drift"`) {
		t.Fatalf("/sd: %d %s", code, body)
	}
	_, probe := e.Get(t, "/probe?module=beammp&target=192.0.2.10:30814")
	wantAll(t, probe, "probe_success 1", "gameserver_players 3", "gameserver_players_max 8")
	_, probe = e.Get(t, "/probe?module=beammp&target=192.0.2.10:30815")
	wantAll(t, probe, "probe_success 0", `probe_failure_info{reason="not_listed"} 1`)
	_, mods := e.Get(t, "/modules")
	wantAll(t, mods, "beammp  http_json  beammp")
	if strings.Contains(mods, "(built-in)") {
		t.Errorf("/modules shows a built-in list next to the defined one:\n%s", mods)
	}
}

// firstSD is /sd?source=src once the source's first refresh (in the background)
// has ended, or after 10 s.
func firstSD(t *testing.T, e *testenv.Exporter, src string) (code int, body string) {
	t.Helper()
	for deadline := time.Now().Add(10 * time.Second); ; time.Sleep(20 * time.Millisecond) {
		if code, body = e.Get(t, "/sd?source="+src); code != 503 || time.Now().After(deadline) {
			return code, body
		}
	}
}
