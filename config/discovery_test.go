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
	c, err := Parse([]byte(`
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
`))
	if err != nil {
		t.Fatal(err)
	}
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

func TestDiscoveryErrors(t *testing.T) {
	cases := []struct{ src, want string }{
		{"discovery: {a: {type: quake3, adress: 127.0.0.1:1}}", `unknown field "adress"`},
		{"discovery: {a: {type: quake3, filters: {nmae: x}}}", `unknown field "nmae"`},
		{"discovery: {a: {type: http_json, url: http://127.0.0.1/, fields: {address: ip, nmae: x}}}", "field nmae not found"},
		{"discovery: {a: {type: quake3, module: nosuch}}", `1:31: discovery: source "a": module "nosuch" is not defined`},
		{"discovery: {a: {type: quake3, refresh: 1s}}", "refresh 1s out of range"},
		{"discovery: {a: {type: quake3, refresh: 1m, timeout: 2m}}", "1:44: discovery: source \"a\": timeout 2m must be positive and at most refresh"},
		{"discovery: {a: {type: quake3, filters: {name: '('}}}", "filters: name"},
		{"discovery: {a: {type: quake3, filters: {not_empty: true}}}", "1:41: discovery: source \"a\": filters: not_empty: this quake3 list has no player counts"},
		{"discovery: {a: {type: quake3, fields: {address: ip}}}", "fields are for type http_json only"},
		{"discovery: {a: {type: file}}", "type file needs a path"},
		{"discovery: {a: {type: file, path: /x, filters: {not_empty: true}}}", "this file list has no player counts"},
		{"discovery: {a: {type: quake3, path: /x}}", "path is for type file only"},
		{"discovery: {a: {type: pterodactyl, url: https://panel.example.org}}", "needs key_file"},
		{"discovery: {a: {type: gamespy}}", `unknown type "gamespy"`},
		{"discovery: {a: {type: quake3, max_targets: 2000000}}", "out of range"},
		{"discovery: {a/b: {type: quake3}}", "source name"},
		{"discovery: {a: }", `source "a": empty source`},
		{"discoveyr: {}", `did you mean "discovery"`},
		{"modules: {m: {protocol: quake3, listed_in: [x]}}", `module "m": listed_in: source "x": the modules file has no discovery sources`},
		{"modules: {m: {protocol: quake3, listed_in: [lsit]}}\ndiscovery: {list: {type: quake3}}", `1:33: module "m": listed_in: source "lsit" is not defined (known: list)`},
		{"modules: {m: {protocol: quake3, listed_on: [x]}}", `did you mean "listed_in"`},
	}
	for _, c := range cases {
		_, err := Parse([]byte(c.src))
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: %v, want %q", c.src, err, c.want)
		}
	}
}

func TestDiscoveryFilters(t *testing.T) {
	c, err := Parse([]byte(`
discovery:
  f:
    type: ddnet
    url: http://127.0.0.1/
    filters: {name: "^\\[EU\\]", game: ctf, map: ctf5, not_empty: true}
`))
	if err != nil {
		t.Fatal(err)
	}
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
	c, err := Parse([]byte("discovery: {oa: {type: ddnet, url: http://127.0.0.1:8080/servers.json, fields: null, filters: {map: oasago2}}}"))
	if err != nil {
		t.Fatal(err)
	}
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
	c, err := Parse([]byte(`
discovery:
  mylist:
    preset: beammp
    url: http://127.0.0.1:8080/servers-info
    filters: {name: "^Drift", not_empty: true}
    max_targets: 500
  asa: {preset: arksa}
  gs: {preset: geneshift, refresh: 10m}
`))
	if err != nil {
		t.Fatal(err)
	}
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
	for _, tc := range []struct{ src, want string }{
		{"discovery: {a: {preset: nosuch}}", `unknown preset "nosuch"`},
		{"discovery: {a: {preset: beammp, type: quake3}}", "leave type unset"},
		{"discovery: {a: {preset: beammp, fields: {address: ip}}}", "leave fields unset"},
	} {
		if _, err := Parse([]byte(tc.src)); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: %v, want %q", tc.src, err, tc.want)
		}
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

// TestDiscoveryToken: a list that signs in takes username and token_file, the
// module reading it needs no targets (the token goes to the list only), and
// a changed token file restarts the source on reload.
func TestDiscoveryToken(t *testing.T) {
	tok := filepath.Join(t.TempDir(), "factorio.token")
	os.WriteFile(tok, []byte("0123abcd\n"), 0o600)
	src := fmt.Sprintf("discovery: {factorio: {preset: factorio, username: exporter, token_file: %s}}", tok)
	c, err := Parse([]byte(src))
	if err != nil {
		t.Fatal(err)
	}
	if m := c.Modules["factorio"]; m == nil || m.Protocol != "list" || len(m.Targets) != 0 {
		t.Fatalf("module factorio: %+v", m)
	}
	if strings.Contains(c.Discovery["factorio"].compare, "0123abcd") {
		t.Fatal("the token is in the compared settings")
	}
	os.WriteFile(tok, []byte("4567ef\n"), 0o600)
	again, err := Parse([]byte(src))
	if err != nil {
		t.Fatal(err)
	}
	if c.Discovery["factorio"].Same(again.Discovery["factorio"]) {
		t.Fatal("a changed token file keeps the running source")
	}
	for _, tc := range []struct{ src, want string }{
		{"discovery: {f: {preset: factorio}}", "set username and token_file"},
		{fmt.Sprintf("discovery: {b: {preset: beammp, username: x, token_file: %s}}", tok), "needs a sign-in (factorio)"},
	} {
		if _, err := Parse([]byte(tc.src)); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: %v, want %q", tc.src, err, tc.want)
		}
	}
}

// TestDiscoveryExample: examples/discovery.yml, with its preset source, loads.
func TestDiscoveryExample(t *testing.T) {
	c, err := Load("../examples/discovery.yml")
	if err != nil {
		t.Fatal(err)
	}
	if s := c.Discovery["beammp_drift"]; s == nil || s.Preset != "beammp" || s.Type != master.TypeHTTPJSON || s.Lister() == nil {
		t.Errorf("the preset source: %+v", s)
	}
}

// TestDiscoveryFileAndPanel: a file source and a panel source load; the
// panel's key is in no compared setting, and a changed key file restarts it.
func TestDiscoveryFileAndPanel(t *testing.T) {
	key := filepath.Join(t.TempDir(), "panel.key")
	os.WriteFile(key, []byte("ptla_0123abcd\n"), 0o600)
	src := fmt.Sprintf("discovery: {mine: {type: file, path: /srv/targets.txt, module: a2s}, panel: {type: pterodactyl, url: https://panel.example.org, key_file: %s, module: a2s}}", key)
	c, err := Parse([]byte(src))
	if err != nil {
		t.Fatal(err)
	}
	if s := c.Discovery["mine"]; s.Lister() == nil || s.Path != "/srv/targets.txt" {
		t.Fatalf("file source: %+v", s)
	}
	p := c.Discovery["panel"]
	if p.Lister() == nil || strings.Contains(p.compare, "0123abcd") || strings.Contains(fmt.Sprintf("%v %+v", p, p.Lister()), "0123abcd") {
		t.Fatalf("panel source: %+v", p)
	}
	os.WriteFile(key, []byte("ptla_4567ef\n"), 0o600)
	again, err := Parse([]byte(src))
	if err != nil {
		t.Fatal(err)
	}
	if p.Same(again.Discovery["panel"]) {
		t.Fatal("a changed key file keeps the running source")
	}
	if !c.Discovery["mine"].Same(again.Discovery["mine"]) {
		t.Fatal("an unchanged file source restarts")
	}
}

// TestDiscoveryFilterNeedsField: a filter on a field the source's list never
// fills is refused at load time, at the filter's line, naming the types that
// fill it; the same filter loads on a list that has the field.
func TestDiscoveryFilterNeedsField(t *testing.T) {
	for _, c := range []struct{ src, want string }{
		{"type: quake3\n    filters:\n      name: ^MyClan", `modules.yml:6:7: discovery: source "s": filters: name: this quake3 list has no server names, so the filter cannot apply (lists that have them: ddnet, geneshift, http_json mapping fields.name, pterodactyl, ragemp, scum, steam with key_file)`},
		{"type: quakeworld\n    filters:\n      game: qw", `modules.yml:6:7: discovery: source "s": filters: game: this quakeworld list has no games`},
		{"type: steam\n    filters:\n      map: de_dust2", `modules.yml:6:7: discovery: source "s": filters: map: this steam (without key_file) list has no maps`},
		{"type: steam\n    filters:\n      not_empty: true", "ask the master for servers with players in the query instead"},
		{"type: pterodactyl\n    url: https://panel.example.org\n    key_file: KEY\n    filters:\n      map: x", `modules.yml:8:7: discovery: source "s": filters: map: this pterodactyl list has no maps`},
		{"type: http_json\n    url: http://127.0.0.1/\n    fields: {address: ip}\n    filters: {name: x}", `modules.yml:7:15: discovery: source "s": filters: name: this http_json list has no server names`},
		{"preset: gta5am\n    filters: {map: x}", "this preset gta5am list has no maps"},
	} {
		key := filepath.Join(t.TempDir(), "key")
		os.WriteFile(key, []byte("k"), 0o600)
		yml := "# sources\ndiscovery:\n  s:\n    " + strings.ReplaceAll(c.src, "KEY", key) + "\n"
		if _, err := ParseFile("modules.yml", []byte(yml)); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s:\n%v\nwant %q", yml, err, c.want)
		}
	}
	key := filepath.Join(t.TempDir(), "key")
	os.WriteFile(key, []byte("k"), 0o600)
	for _, ok := range []string{
		"{type: ddnet, filters: {name: x, game: y, map: z, not_empty: true}}",
		"{type: steam, key_file: " + key + ", filters: {name: x, game: y, map: z, not_empty: true}}",
		"{type: geneshift, url: http://127.0.0.1/, filters: {name: x, map: z, not_empty: true}}",
		"{type: pterodactyl, url: https://panel.example.org, key_file: " + key + ", filters: {name: x}}",
		"{type: http_json, url: http://127.0.0.1/, fields: {address: a, name: n, game: g, map: m, players: p}, filters: {name: x, game: y, map: z, not_empty: true}}",
		"{preset: beammp, filters: {name: Drift, not_empty: true}}",
	} {
		if _, err := Parse([]byte("discovery: {s: " + ok + "}")); err != nil {
			t.Errorf("%s: %v", ok, err)
		}
	}
}

// TestDiscoveryHeaders: a reload with the same header values keeps the running
// source, a changed value (inline or in its file) restarts it; the compared
// settings hold no value.
func TestDiscoveryHeaders(t *testing.T) {
	file := filepath.Join(t.TempDir(), "list.key")
	os.WriteFile(file, []byte("filekey1\n"), 0o600)
	src := func(key string) string {
		return fmt.Sprintf("discovery: {l: {type: http_json, url: \"https://list.example/s\", fields: {address: ip}, headers: {X-Api-Key: %s}, header_files: {X-Other: %s}}}", key, file)
	}
	parse := func(s string) *DiscoverySource {
		c, err := Parse([]byte(s))
		if err != nil {
			t.Fatal(err)
		}
		return c.Discovery["l"]
	}
	a := parse(src("inlinekey1"))
	if strings.Contains(a.compare, "inlinekey1") || strings.Contains(a.compare, "filekey1") {
		t.Fatalf("a key is in the compared settings: %s", a.compare)
	}
	if !a.Same(parse(src("inlinekey1"))) {
		t.Fatal("the same headers restart the source")
	}
	if a.Same(parse(src("inlinekey2"))) {
		t.Fatal("a changed header value keeps the running source")
	}
	os.WriteFile(file, []byte("filekey22\n"), 0o600)
	if a.Same(parse(src("inlinekey1"))) {
		t.Fatal("a changed header file keeps the running source")
	}
}
