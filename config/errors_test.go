package config

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestParseErrors: each wrong modules file is refused, at its place, with the
// complaint; KEY is an existing key file.
func TestParseErrors(t *testing.T) {
	key := filepath.Join(t.TempDir(), "key")
	os.WriteFile(key, []byte("k"), 0o600)
	for _, c := range []struct{ yaml, want string }{
		{"modules:\n  oa_full:\n    protocol: quake3\n    timout: 5s\n", `modules.yml:4:5: module "oa_full": unknown field "timout" (did you mean "timeout"?)`},
		{"modules:\n  oa:\n    protocol: quake3\n   timeout: 5s\n", "modules.yml:4:"}, // bad indent, real line
		{"modules:\n oa:\n    protocol: quake3\n  timeout: 5s\n", "modules.yml:4:"},   // bad indent between levels
		{"modulez:\n  oa:\n    protocol: quake3\n", `modules.yml:1:1: unknown field "modulez" (did you mean "modules"?)`},
		{"modules:\n  oa:\n    protocol: quake3\n    timeout: 5x\n", `modules.yml:4:14: timeout: unknown unit "x"`},
		{"modules:\n  oa:\n    protocol: quak3\n", `modules.yml:3:5: module "oa": unknown protocol "quak3" (did you mean "quake3"?`},
		{"modules:\n  oa:\n    protocol: quake3\n    timeout: 87600h\n", `modules.yml:4:5: module "oa": timeout 10y is over the limit of 5m`},
		{"modules:\n  oa:\n    protocol: quake3\n    a2s: {}\n", `modules.yml:4:5: module "oa": protocol block "a2s"`},
		{"modules:\n  oa:\n    players: true\n", `modules.yml:2:3: module "oa": protocol is required`},
		{"modules:\n  m:\n    protocol: a2s\n    port_offsets: [0,1,2,3,4,5,6,7,8]\n", "at most 8"},
		// An anchor, alias or merge key could hide a credential from the check that a
		// module with one lists its targets, and show it on /config under another key.
		{"modules:\n  m:\n    protocol: teamspeak3\n    teamspeak3:\n      username: &pw admin\n      password: *pw\n", "anchors, aliases and merge keys"},
		{"modules:\n  base: &base\n    protocol: a2s\n  m:\n    <<: *base\n", "anchors, aliases and merge keys"},
		{"modules:\n  m:\n    protocol: a2s\n    targets: &t [192.0.2.1]\n", "anchors, aliases and merge keys"},
		// target_policy
		{"target_policy:\n  allow: [nonsense/99]\n", "modules.yml:1:1: target_policy:"},
		{"target_policy:\n  allow: [\"10.0.0.0/33\"]\n", `target_policy.allow: invalid address or CIDR "10.0.0.0/33"`},
		{"target_policy:\n  deny: [\"[a-\"]\n", `target_policy.deny: invalid hostname pattern "[a-"`},
		{"target_policy:\n  alow: []\n", `2:3: unknown field "alow" (did you mean "allow"?)`},
		{"target_policy:\n  deny: [\"10.0.0.1/8\"]\n", `"10.0.0.1/8" has bits set past the prefix length (did you mean 10.0.0.0/8?)`},
		{"target_policy:\n  allow: [\"fe80::1%eth0\"]\n", `"fe80::1%eth0" has a zone`},
		{"target_policy:\n  deny: [\"\"]\n", `target_policy.deny: empty entry`},
		{"target_policy:\n  deny: [\"10.0.0.300\"]\n", `invalid address or CIDR "10.0.0.300"`},
		{"target_policy:\n  deny: [\"fe80::1::2\"]\n", `invalid address or CIDR`},
		{"target_policy:\n  deny: [\"169.254.*\"]\n", `address patterns are not supported`},
		{"target_policy:\n  deny: [\"bad host\"]\n", `invalid hostname pattern "bad host"`},
		{"target_policy:\n  deny: [\"x.example/\"]\n", `invalid address or CIDR`},
		// discovery
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
		{"discovery: {a: {preset: nosuch}}", `unknown preset "nosuch"`},
		{"discovery: {a: {preset: beammp, type: quake3}}", "leave type unset"},
		{"discovery: {a: {preset: beammp, fields: {address: ip}}}", "leave fields unset"},
		{"discovery: {f: {preset: factorio}}", "set username and token_file"},
		{"discovery: {b: {preset: beammp, username: x, token_file: KEY}}", "needs a sign-in (factorio)"},
		// A filter on a field the source's list never fills, at the filter's line,
		// naming the types that fill it.
		{"# sources\ndiscovery:\n  s:\n    type: quake3\n    filters:\n      name: ^MyClan", `modules.yml:6:7: discovery: source "s": filters: name: this quake3 list has no server names, so the filter cannot apply (lists that have them: ddnet, geneshift, http_json mapping fields.name, pterodactyl, ragemp, scum, steam with key_file)`},
		{"# sources\ndiscovery:\n  s:\n    type: quakeworld\n    filters:\n      game: qw", `modules.yml:6:7: discovery: source "s": filters: game: this quakeworld list has no games`},
		{"# sources\ndiscovery:\n  s:\n    type: steam\n    filters:\n      map: de_dust2", `modules.yml:6:7: discovery: source "s": filters: map: this steam (without key_file) list has no maps`},
		{"discovery: {s: {type: steam, filters: {not_empty: true}}}", "ask the master for servers with players in the query instead"},
		{"# sources\ndiscovery:\n  s:\n    type: pterodactyl\n    url: https://panel.example.org\n    key_file: KEY\n    filters:\n      map: x", `modules.yml:8:7: discovery: source "s": filters: map: this pterodactyl list has no maps`},
		{"# sources\ndiscovery:\n  s:\n    type: http_json\n    url: http://127.0.0.1/\n    fields: {address: ip}\n    filters: {name: x}", `modules.yml:7:15: discovery: source "s": filters: name: this http_json list has no server names`},
		{"discovery: {s: {preset: gta5am, filters: {map: x}}}", "this preset gta5am list has no maps"},
	} {
		if _, err := ParseFile("modules.yml", []byte(strings.ReplaceAll(c.yaml, "KEY", key))); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s:\ngot %v\nwant it to contain %q", c.yaml, err, c.want)
		}
	}
}

func TestSuggest(t *testing.T) {
	for _, c := range []struct{ key, want string }{
		{"timout", "timeout"}, {"player", "players"}, {"port_offset", "port_offsets"}, {"zzzzzzzz", ""},
	} {
		got := suggest(c.key, moduleKeys)
		if (c.want == "" && got != "") || (c.want != "" && !strings.Contains(got, `"`+c.want+`"`)) {
			t.Errorf("suggest(%q) = %q, want %q", c.key, got, c.want)
		}
	}
}

// TestNearest: an unknown module is answered with the few nearest names, a
// difference in case first, never the whole list.
func TestNearest(t *testing.T) {
	known := []string{"openarena", "openttd", "quake3", "quake2", "quakeworld", "minecraft", "minecraftbedrock", "valheim", "a2s"}
	for _, c := range []struct {
		name string
		want []string
	}{
		{"OpenArena", []string{"openarena"}},
		{"openarna", []string{"openarena"}},
		{"quake", []string{"quake2", "quake3", "quakeworld"}},
		{"QUAKE4", []string{"quake2", "quake3"}},
		{"minecr", []string{"minecraft", "minecraftbedrock"}},
		{"nope", nil},
		{"a2s", nil}, // itself is no suggestion
	} {
		got := Nearest(c.name, known, 3)
		if strings.Join(got, ",") != strings.Join(c.want, ",") {
			t.Errorf("Nearest(%q) = %v, want %v", c.name, got, c.want)
		}
	}
	cfg := &Config{Modules: map[string]*Module{"openarena": {}, "quake3": {}}}
	if got, want := cfg.UnknownModule("OpenArena"), `unknown module "OpenArena" (did you mean "openarena"?); 2 known (listed on /modules)`; got != want {
		t.Errorf("UnknownModule = %q, want %q", got, want)
	}
}

// TestAllErrors: every wrong module of a file is reported, each at its place, and
// a module name that cannot go into a URL or a label is one of them.
func TestAllErrors(t *testing.T) {
	_, err := ParseFile("m.yml", []byte("modules:\n  one:\n    protocol: a2x\n  bad name!:\n    protocol: a2s\n  two:\n    protocol: a2s\n    timeout: 1h\n"))
	if err == nil {
		t.Fatal("no error")
	}
	for _, want := range []string{`m.yml:3:5: module "one": unknown protocol "a2x"`, `m.yml:4:3: module "bad name!": module name "bad name!"`, `m.yml:8:5: module "two": timeout 1h`} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("missing %q in:\n%v", want, err)
		}
	}
	for _, good := range []string{"a2s-eu.1", "Quake_3", "7d2d"} {
		if checkName(good) != nil {
			t.Errorf("name %q refused", good)
		}
	}
	for _, bad := range []string{"", "-x", "a b", `a"b`, "a/b", "ä", strings.Repeat("a", 65)} {
		if checkName(bad) == nil {
			t.Errorf("name %q accepted", bad)
		}
	}
}

// TestShadowWarning: a module that replaces a catalog game's built-in one and
// drops its ports is warned of; one that keeps them, or a new name, is not.
func TestShadowWarning(t *testing.T) {
	for _, c := range []struct {
		file string
		want string
	}{
		{"modules:\n  valheim:\n    protocol: a2s\n", `m.yml:2:3: module "valheim" replaces the built-in module "valheim" (port 2456, port_offsets [1]) and uses port 27015, port_offsets [0]`},
		{"modules:\n  valheim:\n    protocol: a2s\n    port: 2456\n    port_offsets: [1]\n    players: true\n", ""},
		{"modules:\n  a2s:\n    protocol: a2s\n    players: true\n", ""},
		{"modules:\n  myvalheim:\n    protocol: a2s\n", ""},
	} {
		cfg, err := ParseFile("m.yml", []byte(c.file))
		if err != nil {
			t.Fatal(err)
		}
		got := strings.Join(cfg.Warnings, "\n")
		if (c.want == "") != (got == "") || !strings.Contains(got, c.want) {
			t.Errorf("%s: warnings %q, want %q", c.file, got, c.want)
		}
	}
}

// TestErrorsInFileOrder: every error of a file, each at its offending key, in the
// order of the file's lines (modules are validated by name, sources after them).
func TestErrorsInFileOrder(t *testing.T) {
	yml := `modules:
  zz:
    protocol: quake3
    retries: 9
  aa:
    protocol: a2s
    preferred_ip_protocol: ip5
discovery:
  b_src:
    type: quake3
    filters: {map: q3dm17}
  a_src:
    type: quake3
    module: nosuch
target_policy:
  allow: [nonsense/99]
`
	_, err := ParseFile("modules.yml", []byte(yml))
	if err == nil {
		t.Fatal("no error")
	}
	var lines []string
	for _, l := range strings.Split(err.Error(), "\n") {
		where, _, _ := strings.Cut(strings.TrimPrefix(l, "modules.yml:"), ": ")
		lines = append(lines, where)
	}
	if got, want := strings.Join(lines, " "), "4:5 7:5 11:15 14:5 15:1"; got != want {
		t.Errorf("errors at %s, want %s:\n%v", got, want, err)
	}
}

// TestMissingModule: a probe without a module is told of module auto and a few
// modules of the target's port (protocols' own first), not of all of them.
func TestMissingModule(t *testing.T) {
	c := mustParse(t, "")
	got := c.MissingModule(27015)
	if !strings.HasPrefix(got, `module parameter is missing: add module=NAME (did you mean "auto", "a2s", `) || strings.Count(got, `"`) != 8 || len(got) > 200 {
		t.Errorf("MissingModule(27015) = %s", got)
	}
	if got := c.MissingModule(0); !strings.HasPrefix(got, `module parameter is missing: add module=NAME (did you mean "auto"?); `) {
		t.Errorf("MissingModule(0) = %s", got)
	}
	if strings.Contains(got, `"list"`) {
		t.Errorf("MissingModule(27015) suggests a module that never asks the target: %s", got)
	}
}
