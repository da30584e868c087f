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
