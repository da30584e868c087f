package config

import (
	"bytes"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"gopkg.in/yaml.v3"

	"github.com/gameserver-exporter/gameserver_exporter/protocols/catalog"
	"github.com/gameserver-exporter/gameserver_exporter/protocols/registry"
)

func TestBuiltinModules(t *testing.T) {
	c := mustLoad(t, "")
	for _, p := range registry.All() {
		m, ok := c.Modules[p.Name]
		if !ok {
			t.Errorf("no built-in module for protocol %s", p.Name)
			continue
		}
		if m.Querier() == nil || time.Duration(m.Timeout) != DefaultTimeout || m.DefaultPort() != p.DefaultPort {
			t.Errorf("built-in %s not compiled with defaults: %+v", p.Name, m)
		}
	}
}

func TestGoodFile(t *testing.T) {
	c := mustLoad(t, "testdata/good.yml")
	q := c.Modules["quake3"]
	if time.Duration(q.Timeout) != 3*time.Second || !q.Players {
		t.Errorf("file must override the built-in quake3 module: %+v", q)
	}
	oa := c.Modules["openarena"]
	if oa.DefaultPort() != 27960 || oa.Retries != 2 || oa.MaxPlayerSeries != 10 || oa.PreferredIPProtocol != "ip6" || oa.Fallback() {
		t.Errorf("openarena: %+v", oa)
	}
	if _, ok := c.Modules["hytale"]; !ok {
		t.Error("a file adds to the built-ins; hytale is gone")
	}
	if _, err := c.YAML(); err != nil {
		t.Error(err)
	}
}

func TestSafeConfigKeepsOldOnBadReload(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "modules.yml")
	good, _ := os.ReadFile("testdata/good.yml")
	os.WriteFile(path, good, 0o644)
	sc := NewSafeConfig(path)
	if err := sc.Reload(); err != nil {
		t.Fatal(err)
	}
	os.WriteFile(path, []byte("modules:\n  x:\n    protocol: nope\n"), 0o644)
	if err := sc.Reload(); err == nil || !strings.Contains(err.Error(), "modules.yml:3:5: module \"x\": unknown protocol") {
		t.Fatalf("bad file reloaded: %v", err)
	}
	if _, ok := sc.Get().Modules["openarena"]; !ok {
		t.Fatal("a failed reload must keep the old config")
	}
}

func TestCatalogModules(t *testing.T) {
	c := mustLoad(t, "")
	type module struct {
		Protocol string
		Port     uint16
		Offsets  []int
		Rules    bool
	}
	for name, want := range readYAML[map[string]module](t, "catalog_modules.yml") {
		m, ok := c.Modules[name]
		if !ok {
			t.Errorf("no built-in module %s", name)
		} else if got := (module{m.Protocol, m.DefaultPort(), m.QueryPortOffsets(), m.Rules}); !reflect.DeepEqual(got, want) {
			t.Errorf("%s: %+v, want %+v", name, got, want)
		}
	}
	if n := len(c.Modules); n < 150 {
		t.Errorf("%d built-in modules; the catalog should bring about 190", n)
	}
	// A row whose protocol is not compiled in is skipped, not an error.
	for _, g := range catalog.Games {
		if _, ok := registry.Lookup(g.Protocol); !ok {
			if _, ok := c.Modules[g.Module]; ok && g.Module != g.Protocol {
				t.Errorf("%s: module built for protocol %s, which is not compiled in", g.Module, g.Protocol)
			}
		}
	}
}

// TestCatalogOptions: a row's protocol block reaches its module, and compiles.
func TestCatalogOptions(t *testing.T) {
	c := mustLoad(t, "")
	m := c.Modules["justcause2mp"]
	if m == nil || m.Querier() == nil {
		t.Fatal("no compiled justcause2mp module")
	}
	var o struct {
		Variant string `yaml:"variant"`
	}
	if err := m.decodeOptions(&o); err != nil || o.Variant != "jc2mp" {
		t.Errorf("justcause2mp options: %+v %v", o, err)
	}
	if _, ok := c.Modules["gamespy3"].Options["gamespy3"]; ok {
		t.Error("the protocol's own module must not take a game's options")
	}
	out, err := c.YAML()
	if err != nil || !strings.Contains(string(out), "variant: jc2mp") {
		t.Errorf("/config must show the catalog's options: %v", err)
	}
}

func mustParse(t *testing.T, yml string) *Config {
	t.Helper()
	c, err := Parse([]byte(yml))
	if err != nil {
		t.Fatal(err)
	}
	return c
}

func mustLoad(t *testing.T, path string) *Config {
	t.Helper()
	c, err := Load(path)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// readYAML decodes testdata/name into a T, refusing keys T does not have (a typo
// would drop its cases unseen).
func readYAML[T any](t *testing.T, name string) (v T) {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("testdata", name))
	if err != nil {
		t.Fatal(err)
	}
	d := yaml.NewDecoder(bytes.NewReader(b))
	d.KnownFields(true)
	if err := d.Decode(&v); err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	return v
}
