package a2s

import (
	"path/filepath"
	"reflect"
	"testing"

	"github.com/gameserver-exporter/gameserver_exporter/protocols/internal/steam/steamtest"
	"github.com/gameserver-exporter/gameserver_exporter/protocols/prototest"
)

// readHex reads an annotated hex vector from testdata/ (see prototest.ParseHex).
func readHex(t testing.TB, name string) []byte { return prototest.HexFile(t, name) }

// fixtures lists every .expected.json under shared/fixtures/<sub> (skipping the
// test when the shared folder is absent).
func fixtures(t *testing.T, proto string, sub ...string) []steamtest.Fixture {
	t.Helper()
	dir := filepath.Join(append([]string{prototest.FixtureDir(t, proto)}, sub...)...)
	return steamtest.Fixtures(t, dir)
}

// checker compares decoded values with a fixture's JSON and reports mismatches.
type checker struct {
	t    *testing.T
	want map[string]any
}

func (c checker) int(key string, got int64) {
	c.t.Helper()
	if v, ok := c.want[key]; ok && v != nil {
		if w := steamtest.Int(c.t, v); w != got {
			c.t.Errorf("%s = %d, want %d", key, got, w)
		}
	}
}

func (c checker) str(key, got string) {
	c.t.Helper()
	if v, ok := c.want[key]; ok && v != nil {
		if w := prototest.FixtureBytes(c.t, v); w != got {
			c.t.Errorf("%s = %q, want %q", key, got, w)
		}
	}
}

// all compares each value with the fixture's key, as int or str by its kind.
func (c checker) all(vals map[string]any) {
	c.t.Helper()
	for k, v := range vals {
		switch rv := reflect.ValueOf(v); {
		case rv.Kind() == reflect.String:
			c.str(k, rv.String())
		case rv.CanInt():
			c.int(k, rv.Int())
		default:
			c.int(k, int64(rv.Uint()))
		}
	}
}

func (c checker) present(key string) bool {
	v, ok := c.want[key]
	return ok && v != nil
}
