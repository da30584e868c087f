package prototest

import (
	"errors"
	"testing"

	"github.com/gameserver-exporter/gameserver_exporter/protocols"
)

// Hooked's New hooks what the protocol's New makes, passes a failure on
// without hooking, and leaves the protocol it was given as it was.
func TestHooked(t *testing.T) {
	errBad := errors.New("bad options")
	p := protocols.Protocol{Name: "fake", New: func(s protocols.Settings) (protocols.Querier, error) {
		if s.Rules {
			return nil, errBad
		}
		return &FakeQuerier{}, nil
	}}
	hooks := 0
	h := Hooked(p, func(q protocols.Querier) { q.(*FakeQuerier).Wait = true; hooks++ })
	if h.Name != "fake" {
		t.Errorf("name %q", h.Name)
	}
	q, err := h.New(protocols.Settings{})
	if err != nil || !q.(*FakeQuerier).Wait || hooks != 1 {
		t.Errorf("hooked New: %+v, %v, %d hooks", q, err, hooks)
	}
	if q, err := h.New(protocols.Settings{Rules: true}); q != nil || !errors.Is(err, errBad) || hooks != 1 {
		t.Errorf("failing New: %v, %v, %d hooks", q, err, hooks)
	}
	if q, _ := p.New(protocols.Settings{}); q.(*FakeQuerier).Wait || hooks != 1 {
		t.Errorf("the protocol given was hooked too")
	}
}
