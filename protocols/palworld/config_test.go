package palworld_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gameserver-exporter/gameserver_exporter/config/configtest"
	"github.com/gameserver-exporter/gameserver_exporter/protocols/prototest"
)

// The options as a modules file gives them: strict YAML, the password from a file
// read at load, /config never showing an inline password, and the built-in
// palworld module (no block) loading with the rest.
func TestModulesFile(t *testing.T) {
	file := filepath.Join(t.TempDir(), "pw")
	os.WriteFile(file, []byte("hunter2\n"), 0o600)
	good := "modules:\n" +
		"  pal_file: {protocol: palworld, players: true, targets: [127.0.0.1], palworld: {password_file: " + file + "}}\n" +
		"  pal_inline: {protocol: palworld, targets: [game.example.org], palworld: {username: admin, password: inline-pw-42}}\n"
	c := configtest.Modules(t, good, "palworld", "pal_file", "pal_inline")
	out, err := c.YAML()
	prototest.NoError(t, err)
	if strings.Contains(string(out), "inline-pw-42") || !strings.Contains(string(out), file) {
		t.Errorf("/config shows the password or hides the file name:\n%s", out)
	}
	configtest.Refused(t, map[string]string{
		"modules:\n  p: {protocol: palworld, palworld: {username: admin}}\n":          "password",
		"modules:\n  p: {protocol: palworld, palworld: {password: x, passwrd: y}}\n":  "passwrd",
		"modules:\n  p: {protocol: palworld, palworld: {password_file: /absent/x}}\n": "/absent/x",
	})
}
