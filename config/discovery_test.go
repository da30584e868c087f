package config

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gameserver-exporter/gameserver_exporter/protocols/master"
)

func TestDiscovery(t *testing.T) {
	c := mustParse(t, `
modules:
  oa_listed:
    protocol: quake3
    listed_in: [community_oa]
discovery:
  community_oa:
    type: quake3
    address: 127.0.0.1:27950
    query: "getservers 71 full empty"
    module: openarena
    refresh: 1m
    max_targets: 50000
  list:
    type: http_json
    url: http://127.0.0.1:8080/servers
    fields: {list: data.servers, address: ip, port: port, name: name, players: players, max: max}
    filters: {name: "^MyClan", not_empty: true}
`)
	oa := c.Discovery["community_oa"]
	if oa.Lister() == nil || c.Discovery["list"].nameRE == nil || oa.Refresh.String() != "1m" || oa.Timeout.String() != "30s" {
		t.Fatalf("%+v", oa)
	}
	if l := c.Discovery["list"]; l.Refresh.String() != "2m" || l.Lister() == nil {
		t.Fatalf("defaults: %+v", l)
	}
	if got := c.Modules["oa_listed"].ListedIn; len(got) != 1 || got[0] != "community_oa" {
		t.Fatalf("listed_in %v", got)
	}
	again, _ := Parse([]byte("discovery: {community_oa: {type: quake3, address: 127.0.0.1:27950, query: getservers 71 full empty, module: openarena, refresh: 1m, max_targets: 50000}}"))
	if !oa.Same(again.Discovery["community_oa"]) {
		t.Fatal("the same source twice is not Same")
	}
}

func TestDiscoveryFilters(t *testing.T) {
	c := mustParse(t, `
discovery:
  f:
    type: ddnet
    url: http://127.0.0.1/
    filters: {name: "^\\[EU\\]", game: ctf, map: ctf5, not_empty: true}
`)
	s := c.Discovery["f"]
	cases := []struct {
		name, game, mapName string
		players             int64
		known, want         bool
	}{
		{"[EU] one", "CTF", "CTF5", 3, true, true},
		{"[EU] empty", "ctf", "ctf5", 0, true, false},
		{"[EU] count unknown", "ctf", "ctf5", 0, false, true},
		{"[US] two", "ctf", "ctf5", 3, true, false},
		{"[EU] dm", "dm", "ctf5", 3, true, false},
		{"[EU] other map", "ctf", "ctf2", 3, true, false},
	}
	for _, c := range cases {
		if got := s.Keep(c.name, c.game, c.mapName, c.players, c.known); got != c.want {
			t.Errorf("%+v: keep %v", c, got)
		}
	}
}

// TestDiscoveryYAML: /config shows the discovery section as compiled, defaults
// filled, and a reload of that output is the same config.
func TestDiscoveryYAML(t *testing.T) {
	c := mustParse(t, "discovery: {oa: {type: ddnet, url: http://127.0.0.1:8080/servers.json, fields: null, filters: {map: oasago2}}}")
	b, err := c.YAML()
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"discovery:", "oa:", "type: ddnet", "url: http://127.0.0.1:8080/servers.json", "refresh: 2m", "map: oasago2"} {
		if !strings.Contains(string(b), want) {
			t.Errorf("no %q in\n%s", want, b)
		}
	}
	again, err := Parse(b)
	if err != nil {
		t.Fatalf("the rendered config does not load: %v\n%s", err, b)
	}
	if !c.Discovery["oa"].Same(again.Discovery["oa"]) {
		t.Fatal("the rendered source differs")
	}
}

// TestDiscoveryPreset: a source naming a preset takes its type, fields and
// refresh, and may set its own url, refresh and filters.
func TestDiscoveryPreset(t *testing.T) {
	c := mustParse(t, `
discovery:
  mylist:
    preset: beammp
    url: http://127.0.0.1:8080/servers-info
    filters: {name: "^Drift", not_empty: true}
    max_targets: 500
  asa: {preset: arksa}
  gs: {preset: geneshift, refresh: 10m}
`)
	my := c.Discovery["mylist"]
	if my.Type != "http_json" || my.Refresh.String() != "2m" || my.Lister() == nil || my.nameRE == nil {
		t.Fatalf("%+v", my)
	}
	if !strings.Contains(my.compare, "127.0.0.1:8080") {
		t.Fatalf("the url override is not what is compared: %s", my.compare)
	}
	if a := c.Discovery["asa"]; a.Refresh.String() != "5m" || a.Timeout.String() != "2m" {
		t.Fatalf("arksa's refresh and timeout: %+v", a)
	}
	if g := c.Discovery["gs"]; g.Type != "geneshift" || g.Refresh.String() != "10m" {
		t.Fatalf("%+v", g)
	}
}

// TestPresetSource: every preset compiles as a built-in source, at its own
// URL or a given one; an unknown name is none.
func TestPresetSource(t *testing.T) {
	for _, n := range master.PresetNames() {
		s, err := PresetSource(n, "")
		if p, _ := master.LookupPreset(n); p.Credential {
			if err == nil || !strings.Contains(err.Error(), "token_file: PATH") {
				t.Fatalf("%s: a built-in list that needs a token: %v", n, err)
			}
			continue
		}
		if err != nil || s.Lister() == nil || s.Preset != n {
			t.Fatalf("%s: %+v %v", n, s, err)
		}
	}
	s, err := PresetSource("beammp", "http://127.0.0.1:1/x")
	if err != nil || !strings.Contains(s.compare, "127.0.0.1:1") {
		t.Fatalf("%+v %v", s, err)
	}
	if _, err := PresetSource("nosuch", ""); err == nil {
		t.Fatal("an unknown preset compiled")
	}
}

// TestExamples: examples/modules.yml loads, and examples/discovery.yml with its
// preset source.
func TestExamples(t *testing.T) {
	mustLoad(t, "../examples/modules.yml")
	c := mustLoad(t, "../examples/discovery.yml")
	if s := c.Discovery["beammp_drift"]; s == nil || s.Preset != "beammp" || s.Type != master.TypeHTTPJSON || s.Lister() == nil {
		t.Errorf("the preset source: %+v", s)
	}
}

// TestSourceSecrets: a source's token, key or header value is in no compared
// setting, nor in what prints the source; a reload with the same values keeps
// the running source, a changed value (inline or in its file) restarts it.
func TestSourceSecrets(t *testing.T) {
	file := filepath.Join(t.TempDir(), "secret")
	for _, src := range []string{
		"factorio: {preset: factorio, username: exporter, token_file: FILE}",
		"panel: {type: pterodactyl, url: https://panel.example.org, key_file: FILE, module: a2s}",
		"l: {type: http_json, url: \"https://list.example/s\", fields: {address: ip}, headers: {X-Api-Key: INLINE}, header_files: {X-Other: FILE}}",
		"mine: {type: file, path: /srv/targets.txt, module: a2s}",
	} {
		name, _, _ := strings.Cut(src, ":")
		os.WriteFile(file, []byte("secret0123\n"), 0o600)
		parse := func(inline string) *DiscoverySource {
			return mustParse(t, "discovery: {"+strings.NewReplacer("FILE", file, "INLINE", inline).Replace(src)+"}").Discovery[name]
		}
		s := parse("inline0123")
		if s.Lister() == nil || strings.Contains(s.compare+fmt.Sprintf("%v %+v", s, s.Lister()), "0123") {
			t.Fatalf("%s: %+v", name, s)
		}
		if !s.Same(parse("inline0123")) {
			t.Fatalf("%s: the same settings restart the source", name)
		}
		if strings.Contains(src, "INLINE") && s.Same(parse("inline4567")) {
			t.Fatalf("%s: a changed value keeps the running source", name)
		}
		os.WriteFile(file, []byte("secret45678\n"), 0o600)
		if strings.Contains(src, "FILE") && s.Same(parse("inline0123")) {
			t.Fatalf("%s: a changed file keeps the running source", name)
		}
	}
}
