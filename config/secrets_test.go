package config

import (
	"net/netip"
	"os"
	"path/filepath"
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

// TestDiscoverySecretsRedacted (issue 35, M2): /config shows a source URL's
// query values and userinfo, and its header values, as <secret>; the header
// files' paths stay visible, and the source still sends the key.
func TestDiscoverySecretsRedacted(t *testing.T) {
	file := filepath.Join(t.TempDir(), "other.key")
	if err := os.WriteFile(file, []byte("S3CRET3\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	c := mustParse(t, `discovery:
  keyed:
    type: http_json
    url: https://list.example/servers?key=S3CRET&game=x
    fields: {address: ip}
    headers: {X-Api-Key: S3CRET2}
    header_files: {X-Other: `+file+`}
`)
	b, err := c.YAML()
	if err != nil {
		t.Fatal(err)
	}
	out := string(b)
	if strings.Contains(out, "S3CRET") || !strings.Contains(out, "url: https://list.example/servers?key=<secret>&game=<secret>") ||
		!strings.Contains(out, "X-Api-Key: <secret>") || !strings.Contains(out, file) {
		t.Fatalf("/config shows:\n%s", out)
	}
	if c.Discovery["keyed"].URL != "https://list.example/servers?key=S3CRET&game=x" {
		t.Fatal("redaction changed the source itself")
	}
}

func TestCheckTarget(t *testing.T) {
	c := mustParse(t, "modules:\n  pal:\n    protocol: palworld\n    targets: [203.0.113.0/24, '*.example.org', 2001:db8::1]\n    palworld: {password: x}\n")
	m := c.Modules["pal"]
	a := netip.MustParseAddr
	tests := []struct {
		host   string
		isName bool
		addrs  []netip.Addr
		ok     bool
	}{
		{"203.0.113.7", false, []netip.Addr{a("203.0.113.7")}, true},
		{"198.51.100.7", false, []netip.Addr{a("198.51.100.7")}, false},
		{"::ffff:203.0.113.7", false, []netip.Addr{a("::ffff:203.0.113.7")}, true},
		{"2001:db8::1", false, []netip.Addr{a("2001:db8::1")}, true},
		{"game.example.org", true, []netip.Addr{a("198.51.100.7")}, true},                    // the operator's name, their DNS
		{"evil.example.net", true, []netip.Addr{a("203.0.113.9")}, true},                     // resolves into the listed range
		{"evil.example.net", true, []netip.Addr{a("203.0.113.9"), a("198.51.100.7")}, false}, // one address outside
	}
	for _, tc := range tests {
		if err := m.CheckTarget(tc.host, tc.isName, tc.addrs); (err == nil) != tc.ok {
			t.Errorf("%s %v: %v, want allowed=%v", tc.host, tc.addrs, err, tc.ok)
		}
	}
	if err := c.Modules["a2s"].CheckTarget("198.51.100.7", false, []netip.Addr{a("198.51.100.7")}); err != nil {
		t.Errorf("a module without targets restricts nothing: %v", err)
	}
}
