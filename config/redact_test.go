package config

import (
	"strings"
	"testing"

	"gopkg.in/yaml.v3"
)

func TestSecretsRedacted(t *testing.T) {
	var m Module
	src := `{protocol: x, x: {password: hunter2, password_file: /run/pw, nested: {token: abc}, client_secret: s3}}`
	if err := yaml.Unmarshal([]byte(src), &m); err != nil {
		t.Fatal(err)
	}
	out := ModuleYAML(&m)
	for _, leak := range []string{"hunter2", "abc", "s3"} {
		if strings.Contains(out, leak) {
			t.Errorf("ModuleYAML leaks %q:\n%s", leak, out)
		}
	}
	if !strings.Contains(out, "/run/pw") || strings.Count(out, "<secret>") != 3 {
		t.Errorf("want 3 redactions and the file path kept:\n%s", out)
	}
	c := &Config{Modules: map[string]*Module{"m": &m}}
	b, err := c.YAML()
	if err != nil || strings.Contains(string(b), "hunter2") {
		t.Errorf("Config.YAML leaks or fails (%v):\n%s", err, b)
	}
	if m.Options["x"].Content[1].Value != "hunter2" {
		t.Error("redaction changed the module itself")
	}
}
