package a2s

import (
	"encoding/hex"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/gameserver-exporter/gameserver_exporter/protocols/prototest"
)

// readHex reads an annotated hex vector from testdata/ (see prototest.ParseHex).
func readHex(t testing.TB, name string) []byte { return prototest.HexFile(t, name) }

// readFrags reads testdata/<name>.frag0.hex, frag1, ... in order.
func readFrags(t testing.TB, name string) [][]byte {
	t.Helper()
	var out [][]byte
	for i := 0; ; i++ {
		f := fmt.Sprintf("%s.frag%d.hex", name, i)
		if _, err := os.Stat(filepath.Join("testdata", f)); err != nil {
			break
		}
		out = append(out, readHex(t, f))
	}
	if len(out) == 0 {
		t.Fatalf("no fragments for %s", name)
	}
	return out
}

// fixture is one .expected.json of shared/fixtures with its datagrams.
type fixture struct {
	name      string
	dir       string
	json      map[string]any
	datagrams [][]byte // one, or the fragments in arrival order
}

// fixtures lists every .expected.json under shared/fixtures/<sub> (skipping the
// test when the shared folder is absent).
func fixtures(t *testing.T, proto string, sub ...string) []fixture {
	t.Helper()
	dir := filepath.Join(append([]string{prototest.FixtureDir(t, proto)}, sub...)...)
	return loadFixtures(t, dir)
}

func loadFixtures(t testing.TB, dir string) []fixture {
	t.Helper()
	names, err := filepath.Glob(filepath.Join(dir, "*.expected.json"))
	if err != nil {
		t.Fatal(err)
	}
	sort.Strings(names)
	var out []fixture
	for _, n := range names {
		src, err := os.ReadFile(n)
		if err != nil {
			t.Fatal(err)
		}
		f := fixture{name: strings.TrimSuffix(filepath.Base(n), ".expected.json"), dir: dir}
		if err := json.Unmarshal(src, &f.json); err != nil {
			t.Fatalf("%s: %v", n, err)
		}
		var files []string
		if one, ok := f.json["fixture"].(string); ok {
			files = []string{one}
		} else {
			for _, x := range f.json["fixtures_in_arrival_order"].([]any) {
				files = append(files, x.(string))
			}
		}
		for _, fn := range files {
			b, err := os.ReadFile(filepath.Join(dir, fn))
			if err != nil {
				t.Fatal(err)
			}
			f.datagrams = append(f.datagrams, b)
		}
		out = append(out, f)
	}
	if len(out) == 0 {
		t.Fatalf("no fixtures in %s", dir)
	}
	return out
}

// jsonBytes returns the exact bytes of a fixture string: plain JSON strings are
// UTF-8, others come as {"hex": ..., "latin1": ...}.
func jsonBytes(t testing.TB, v any) string {
	t.Helper()
	switch x := v.(type) {
	case string:
		return x
	case map[string]any:
		b, err := hex.DecodeString(x["hex"].(string))
		if err != nil {
			t.Fatal(err)
		}
		return string(b)
	}
	t.Fatalf("unexpected JSON string value %#v", v)
	return ""
}

func jsonInt(t testing.TB, v any) int64 {
	t.Helper()
	switch x := v.(type) {
	case float64:
		return int64(x)
	case string: // 64-bit values are decimal strings
		var n uint64
		if _, err := fmt.Sscan(x, &n); err != nil {
			t.Fatal(err)
		}
		return int64(n)
	}
	t.Fatalf("unexpected JSON number %#v", v)
	return 0
}

// checker compares decoded values with a fixture's JSON and reports mismatches.
type checker struct {
	t    *testing.T
	want map[string]any
}

func (c checker) int(key string, got int64) {
	c.t.Helper()
	if v, ok := c.want[key]; ok && v != nil {
		if w := jsonInt(c.t, v); w != got {
			c.t.Errorf("%s = %d, want %d", key, got, w)
		}
	}
}

func (c checker) str(key, got string) {
	c.t.Helper()
	if v, ok := c.want[key]; ok && v != nil {
		if w := jsonBytes(c.t, v); w != got {
			c.t.Errorf("%s = %q, want %q", key, got, w)
		}
	}
}

func (c checker) present(key string) bool {
	v, ok := c.want[key]
	return ok && v != nil
}
