package config

import (
	"strings"
	"testing"
)

func TestErrorsSayWhere(t *testing.T) {
	for _, c := range []struct{ name, yaml, want string }{
		{"unknown key with suggestion", "modules:\n  oa_full:\n    protocol: quake3\n    timout: 5s\n",
			`modules.yml:4:5: module "oa_full": unknown field "timout" (did you mean "timeout"?)`},
		{"bad indent, real line", "modules:\n  oa:\n    protocol: quake3\n   timeout: 5s\n", "modules.yml:4:"},
		{"bad indent between levels", "modules:\n oa:\n    protocol: quake3\n  timeout: 5s\n", "modules.yml:4:"},
		{"unknown top-level key", "modulez:\n  oa:\n    protocol: quake3\n", `modules.yml:1:1: unknown field "modulez" (did you mean "modules"?)`},
		{"bad duration", "modules:\n  oa:\n    protocol: quake3\n    timeout: 5x\n", `modules.yml:4:14: timeout: unknown unit "x"`},
		{"unknown protocol", "modules:\n  oa:\n    protocol: quak3\n", `modules.yml:3:5: module "oa": unknown protocol "quak3" (did you mean "quake3"?`},
		{"timeout over the cap", "modules:\n  oa:\n    protocol: quake3\n    timeout: 87600h\n", `modules.yml:4:5: module "oa": timeout 10y is over the limit of 5m`},
		{"wrong protocol block", "modules:\n  oa:\n    protocol: quake3\n    a2s: {}\n", `modules.yml:4:5: module "oa": protocol block "a2s"`},
		{"module without protocol", "modules:\n  oa:\n    players: true\n", `modules.yml:2:3: module "oa": protocol is required`},
		{"policy", "target_policy:\n  allow: [nonsense/99]\n", "modules.yml:1:1: target_policy:"},
	} {
		t.Run(c.name, func(t *testing.T) {
			_, err := ParseFile("modules.yml", []byte(c.yaml))
			if err == nil || !strings.Contains(err.Error(), c.want) {
				t.Errorf("got %v\nwant it to contain %q", err, c.want)
			}
		})
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
