package satisfactory_test

import (
	"strings"
	"testing"

	"github.com/gameserver-exporter/gameserver_exporter/config/configtest"
	"github.com/gameserver-exporter/gameserver_exporter/protocols/prototest"
)

// The api options as a modules file gives them, and /config hiding the token.
func TestModulesFile(t *testing.T) {
	c := configtest.Modules(t, "modules:\n"+
		"  sf_api: {protocol: satisfactory, targets: [127.0.0.1], satisfactory: {api: true, token: tok-secret-99}}\n"+
		"  sf_udp: {protocol: satisfactory, satisfactory: {legacy: true}}\n", "sf_api", "sf_udp")
	out, err := c.YAML()
	prototest.NoError(t, err)
	if strings.Contains(string(out), "tok-secret-99") {
		t.Errorf("/config shows the token:\n%s", out)
	}
	configtest.Refused(t, map[string]string{
		"modules:\n  s: {protocol: satisfactory, satisfactory: {token: x}}\n":                    "api: true",
		"modules:\n  s: {protocol: satisfactory, satisfactory: {api: true, tokenfile: x}}\n":     "tokenfile",
		"modules:\n  s: {protocol: satisfactory, satisfactory: {api: true, ca_file: /absent}}\n": "/absent",
	})
}
