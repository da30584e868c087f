// Package configtest holds what the protocols' tests of their options blocks
// share: a modules file parsed as the exporter loads it.
package configtest

import (
	"testing"

	"github.com/gameserver-exporter/gameserver_exporter/config"
	"github.com/gameserver-exporter/gameserver_exporter/protocols/prototest"
)

// Modules parses yml as a modules file, failing the test when config.Parse
// refuses it or when one of the named modules has no querier.
func Modules(t testing.TB, yml string, names ...string) *config.Config {
	t.Helper()
	c, err := config.Parse([]byte(yml))
	if err != nil {
		t.Fatal(err)
	}
	for _, m := range names {
		if c.Modules[m] == nil || c.Modules[m].Querier() == nil {
			t.Errorf("module %s not built", m)
		}
	}
	return c
}

// Refused checks that config.Parse refuses each modules file of bad with an
// error holding its text (prototest.Refused).
func Refused(t testing.TB, bad map[string]string) {
	t.Helper()
	prototest.Refused(t, func(b []byte) error { _, err := config.Parse(b); return err }, bad)
}
