// Package steamtest holds what the tests of the Steam query family (a2s,
// goldsrc) read alike: split vectors and the real captures of shared/fixtures
// with their .expected.json.
package steamtest

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/gameserver-exporter/gameserver_exporter/protocols/prototest"
)

// Frags reads testdata/<name>.frag0.hex, frag1, ... in order.
func Frags(t testing.TB, name string) [][]byte {
	t.Helper()
	var out [][]byte
	for i := 0; ; i++ {
		f := fmt.Sprintf("%s.frag%d.hex", name, i)
		if _, err := os.Stat(filepath.Join("testdata", f)); err != nil {
			break
		}
		out = append(out, prototest.HexFile(t, f))
	}
	if len(out) == 0 {
		t.Fatalf("no fragments for %s", name)
	}
	return out
}

// Fixture is one .expected.json of shared/fixtures with its datagrams.
type Fixture struct {
	Name      string
	Dir       string
	JSON      map[string]any
	Datagrams [][]byte // one, or the fragments in arrival order
}

// Fixtures reads every .expected.json of dir with the datagrams it names
// ("fixture", or "fixtures_in_arrival_order"), failing when there is none.
func Fixtures(t testing.TB, dir string) []Fixture {
	t.Helper()
	names, err := filepath.Glob(filepath.Join(dir, "*.expected.json"))
	if err != nil {
		t.Fatal(err)
	}
	sort.Strings(names)
	var out []Fixture
	for _, n := range names {
		src, err := os.ReadFile(n)
		if err != nil {
			t.Fatal(err)
		}
		f := Fixture{Name: strings.TrimSuffix(filepath.Base(n), ".expected.json"), Dir: dir}
		if err := json.Unmarshal(src, &f.JSON); err != nil {
			t.Fatalf("%s: %v", n, err)
		}
		var files []string
		if one, ok := f.JSON["fixture"].(string); ok {
			files = []string{one}
		} else {
			for _, x := range f.JSON["fixtures_in_arrival_order"].([]any) {
				files = append(files, x.(string))
			}
		}
		for _, fn := range files {
			b, err := os.ReadFile(filepath.Join(dir, fn))
			if err != nil {
				t.Fatal(err)
			}
			f.Datagrams = append(f.Datagrams, b)
		}
		out = append(out, f)
	}
	if len(out) == 0 {
		t.Fatalf("no fixtures in %s", dir)
	}
	return out
}

// Int returns a fixture number; 64-bit values come as decimal strings.
func Int(t testing.TB, v any) int64 {
	t.Helper()
	switch x := v.(type) {
	case float64:
		return int64(x)
	case string:
		var n uint64
		if _, err := fmt.Sscan(x, &n); err != nil {
			t.Fatal(err)
		}
		return int64(n)
	}
	t.Fatalf("unexpected JSON number %#v", v)
	return 0
}
