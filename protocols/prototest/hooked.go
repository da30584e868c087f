package prototest

import "github.com/gameserver-exporter/gameserver_exporter/protocols"

// Hooked is p whose New hands each querier it makes to hook first: for a
// contract test that sets a test hook of the querier's (api.At = AtProbe, say).
// A New that fails is returned as it is.
func Hooked(p protocols.Protocol, hook func(protocols.Querier)) protocols.Protocol {
	newQuerier := p.New
	p.New = func(s protocols.Settings) (protocols.Querier, error) {
		q, err := newQuerier(s)
		if err != nil {
			return nil, err
		}
		hook(q)
		return q, nil
	}
	return p
}
