package prototest

import (
	"fmt"
	"testing"

	"github.com/gameserver-exporter/gameserver_exporter/protocols"
)

// errorCounter records Errorf calls instead of failing.
type errorCounter struct {
	testing.TB
	n int
}

func (e *errorCounter) Errorf(string, ...any) { e.n++ }

func TestOptionsErrors(t *testing.T) {
	type opts struct {
		Port int `yaml:"port"`
	}
	named := protocols.Protocol{Name: "fake", New: func(s protocols.Settings) (protocols.Querier, error) {
		var o opts
		if err := s.DecodeOptions("fake", &o); err != nil {
			return nil, err
		}
		if o.Port < 0 {
			return nil, fmt.Errorf("fake options: port %d", o.Port)
		}
		return nil, nil
	}}
	unnamed := named
	unnamed.New = func(s protocols.Settings) (protocols.Querier, error) { return nil, s.Options(&opts{}) }
	for _, c := range []struct {
		p    protocols.Protocol
		bad  BadOptions
		want int
	}{
		{named, BadOptions{"port: -1": "fake options: port -1"}, 0},
		{named, BadOptions{"port: 1": "port"}, 1},                   // accepted
		{named, BadOptions{"port: -1": "port must be positive"}, 1}, // another error
		{unnamed, nil, 1}, // the decode error does not name the block
	} {
		e := &errorCounter{TB: t}
		OptionsErrors(e, c.p, c.bad)
		if e.n != c.want {
			t.Errorf("%v: %d errors, want %d", c.bad, e.n, c.want)
		}
	}
}
