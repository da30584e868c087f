package prototest

import (
	"encoding/hex"
	"encoding/json"

	"github.com/gameserver-exporter/gameserver_exporter/protocols/wire"
)

// FixtureString is a fixture's string value as FixtureBytes reads it, its
// exact bytes, for a typed field of an expected file: a plain JSON string,
// or {"hex": ...} for bytes that are not UTF-8 (shared/fixtures/PROVENANCE.md).
type FixtureString string

func (s *FixtureString) UnmarshalJSON(b []byte) error {
	var plain string
	if json.Unmarshal(b, &plain) == nil {
		*s = FixtureString(plain)
		return nil
	}
	var obj struct{ Hex string }
	if err := json.Unmarshal(b, &obj); err != nil {
		return err
	}
	raw, err := hex.DecodeString(obj.Hex)
	*s = FixtureString(raw)
	return err
}

// Latin1String is a fixture's string value as the idTech decoders read the
// wire's bytes: a plain JSON string as it is (ASCII), {"hex": ...} as Latin-1.
type Latin1String string

func (s *Latin1String) UnmarshalJSON(b []byte) error {
	var raw FixtureString
	err := raw.UnmarshalJSON(b)
	if *s = Latin1String(raw); b[0] != '"' {
		*s = Latin1String(wire.Latin1([]byte(raw)))
	}
	return err
}
