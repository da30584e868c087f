package config

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestParse: each modules file of testdata/parse.yml loads, or is refused at its
// place with the complaint.
func TestParse(t *testing.T) {
	key := filepath.Join(t.TempDir(), "key")
	os.WriteFile(key, []byte("k"), 0o600)
	for _, c := range readYAML[[][]string](t, "parse.yml") {
		_, err := ParseFile("modules.yml", []byte(strings.ReplaceAll(c[0], "KEY", key)))
		if c[1] == "" && err != nil || c[1] != "" && (err == nil || !strings.Contains(err.Error(), c[1])) {
			t.Errorf("%s:\ngot %v\nwant it to contain %q", c[0], err, c[1])
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

// TestModuleNames: a module name goes into a URL and a label.
func TestModuleNames(t *testing.T) {
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
// order of the file's lines (modules are validated by name, sources after them);
// a module name that cannot go into a URL or a label is one of them.
func TestErrorsInFileOrder(t *testing.T) {
	yml := `modules:
  zz:
    protocol: quake3
    retries: 9
  bad name!:
    protocol: a2x
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
	if got, want := strings.Join(lines, " "), "4:5 5:3 6:5 9:5 13:15 16:5 17:1"; got != want || !strings.Contains(err.Error(), `5:3: module "bad name!": module name "bad name!"`) {
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
