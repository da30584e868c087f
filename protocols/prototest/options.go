package prototest

// OptionsOf is a protocols.Settings.Options that hands over o as the module's
// decoded block, for a test that builds a querier from options it holds.
func OptionsOf[T any](o T) func(any) error {
	return func(v any) error { *v.(*T) = o; return nil }
}
