package satisfactory_test

import (
	"strings"
	"testing"

	"github.com/gameserver-exporter/gameserver_exporter/config"
)

// The api options as a modules file gives them, and /config hiding the token.
func TestModulesFile(t *testing.T) {
	c, err := config.Parse([]byte("modules:\n" +
		"  sf_api: {protocol: satisfactory, targets: [127.0.0.1], satisfactory: {api: true, token: tok-secret-99}}\n" +
		"  sf_udp: {protocol: satisfactory, satisfactory: {legacy: true}}\n"))
	if err != nil {
		t.Fatal(err)
	}
	out, err := c.YAML()
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(string(out), "tok-secret-99") {
		t.Errorf("/config shows the token:\n%s", out)
	}
	for yaml, want := range map[string]string{
		"modules:\n  s: {protocol: satisfactory, satisfactory: {token: x}}\n":                    "api: true",
		"modules:\n  s: {protocol: satisfactory, satisfactory: {api: true, tokenfile: x}}\n":     "tokenfile",
		"modules:\n  s: {protocol: satisfactory, satisfactory: {api: true, ca_file: /absent}}\n": "/absent",
	} {
		if _, err := config.Parse([]byte(yaml)); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%q: err = %v, want one naming %q", yaml, err, want)
		}
	}
}
