package prototest

import (
	"errors"
	"io"
	"maps"
	"strings"
	"testing"

	"gopkg.in/yaml.v3"

	"github.com/gameserver-exporter/gameserver_exporter/protocols"
)

// OptionsYAML is a protocols.Settings.Options that decodes the module's block
// from yml as the config loader does: a key the protocol does not know is an error.
func OptionsYAML(yml string) func(any) error {
	return func(v any) error {
		dec := yaml.NewDecoder(strings.NewReader(yml))
		dec.KnownFields(true)
		if err := dec.Decode(v); err != nil && !errors.Is(err, io.EOF) {
			return err
		}
		return nil
	}
}

// BadOptions maps an options block (YAML) a protocol must refuse to a piece
// of the error it must give.
type BadOptions map[string]string

// OptionsErrors checks that p.New refuses each block of bad with an error
// holding its text, and a block it cannot decode with an error naming p's block
// ("<name> options: ", what protocols.Settings.DecodeOptions writes).
func OptionsErrors(t testing.TB, p protocols.Protocol, bad BadOptions) {
	t.Helper()
	bad = maps.Clone(bad)
	if bad == nil {
		bad = BadOptions{}
	}
	bad["no_such_option: 1"] = p.Name + " options: "
	for yml, want := range bad {
		_, err := p.New(protocols.Settings{Options: OptionsYAML(yml)})
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%s options %q: error %v, want one holding %q", p.Name, yml, err, want)
		}
	}
}
