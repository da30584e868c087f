// Package registry lists every protocol the exporter speaks. It is the only place
// outside a protocol's own package that names protocols: an explicit list, no init()
// side effects, so what is compiled in is what is listed here.
package registry

import (
	"sort"

	"github.com/gameserver-exporter/gameserver_exporter/protocols"
)

var all = []protocols.Protocol{}

var byName = func() map[string]protocols.Protocol {
	m := make(map[string]protocols.Protocol, len(all))
	for _, p := range all {
		m[p.Name] = p
	}
	return m
}()

// Lookup returns the protocol called name.
func Lookup(name string) (protocols.Protocol, bool) {
	p, ok := byName[name]
	return p, ok
}

// All returns every protocol, sorted by name.
func All() []protocols.Protocol {
	out := append([]protocols.Protocol(nil), all...)
	sort.Slice(out, func(i, j int) bool { return out[i].Name < out[j].Name })
	return out
}
