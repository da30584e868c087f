package protocols

import "fmt"

// DecodeOptions decodes the module's block for protocol name into v (a pointer
// to the protocol's Options), leaving v as it is when the module has none; the
// error names the block ("name options: ...").
func (s Settings) DecodeOptions(name string, v any) error {
	if s.Options == nil {
		return nil
	}
	if err := s.Options(v); err != nil {
		return fmt.Errorf("%s options: %w", name, err)
	}
	return nil
}

// WithOptions makes a protocol's New of build, which gets the module's block for
// protocol name decoded (DecodeOptions; the zero O when the module has none):
// the preamble every protocol with options would otherwise repeat.
func WithOptions[O any](name string, build func(Settings, O) (Querier, error)) func(Settings) (Querier, error) {
	return func(s Settings) (Querier, error) {
		var o O
		if err := s.DecodeOptions(name, &o); err != nil {
			return nil, err
		}
		return build(s, o)
	}
}

// Fixed is the New of a protocol whose querier takes nothing from the module.
func Fixed(q Querier) func(Settings) (Querier, error) {
	return func(Settings) (Querier, error) { return q, nil }
}

// Uint16Option checks the option key of protocol name's block that holds a port
// or another 16-bit number: 0 (unset) is def, a value outside 1-65535 an error.
func Uint16Option(name, key string, v, def int) (uint16, error) {
	if v == 0 {
		v = def
	}
	if v < 1 || v > 65535 {
		return 0, fmt.Errorf("%s options: %s must be between 1 and 65535, got %d", name, key, v)
	}
	return uint16(v), nil
}
