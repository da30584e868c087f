package prototest

import (
	"testing"

	"github.com/gameserver-exporter/gameserver_exporter/protocols/wire"
)

// OptionsOf is a protocols.Settings.Options that hands over o as the module's
// decoded block, for a test that builds a querier from options it holds.
func OptionsOf[T any](o T) func(any) error {
	return func(v any) error { *v.(*T) = o; return nil }
}

// CodePage is the `encoding:` option naming name, as the modules file gives it.
func CodePage(t testing.TB, name string) wire.CodePage {
	t.Helper()
	var c wire.CodePage
	if err := c.UnmarshalText([]byte(name)); err != nil {
		t.Fatal(err)
	}
	return c
}
