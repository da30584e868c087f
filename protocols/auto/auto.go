// Package auto is the module for a target whose protocol is unknown: it asks, at
// once, the few protocols the target's port makes likely (the protocols whose
// default port it is, and the catalog games whose game or query port it is, at
// their query ports), or a small default set when the port suggests none (and
// the default set after them when they do not answer), and reports the first
// that answers, with the protocol and the port it answered on.
//
// It is no protocol of its own and not in the registry (it uses the registry):
// config adds it as the built-in module `auto`.
package auto

import (
	"fmt"
	"slices"
	"strings"

	"github.com/gameserver-exporter/gameserver_exporter/protocols"
	"github.com/gameserver-exporter/gameserver_exporter/protocols/catalog"
	"github.com/gameserver-exporter/gameserver_exporter/protocols/registry"
)

// Protocol is the `auto` module's descriptor.
var Protocol = protocols.Protocol{
	Name:        "auto",
	Description: "Tries the protocols the target's port suggests (catalog games, protocol default ports) at once, then a2s, quake3, minecraft, gamespy4, ... on the port; the first that answers is reported",
	DefaultPort: 27015,
	Transport:   "udp/tcp",
	New:         newQuerier,
}

// Options is the module's `auto:` block.
type Options struct {
	// Protocols limits the protocols auto chooses from (default: all).
	Protocols []string `yaml:"protocols"`
}

var newQuerier = protocols.WithOptions("auto", func(s protocols.Settings, o Options) (protocols.Querier, error) {
	for _, name := range o.Protocols {
		if _, ok := registry.Lookup(name); !ok {
			return nil, fmt.Errorf("protocols: unknown protocol %q", name)
		}
	}
	// Each protocol's querier with the module's settings and its own defaults: a
	// protocol block belongs to a module of that protocol, not to auto.
	each := protocols.Settings{Players: s.Players, Rules: s.Rules, Retries: s.Retries}
	q := &querier{queriers: map[string]protocols.Querier{}, games: catalog.Games}
	for _, p := range registry.All() {
		if len(o.Protocols) > 0 && !slices.Contains(o.Protocols, p.Name) || p.OffTarget {
			continue // auto asks the target itself, never a third party
		}
		pq, err := p.New(each)
		if err != nil {
			continue // a protocol that needs options cannot be guessed
		}
		q.protos = append(q.protos, p)
		q.queriers[p.Name] = pq
	}
	if len(q.protos) == 0 {
		return nil, fmt.Errorf("protocols: none of %s can be built without options", strings.Join(o.Protocols, ", "))
	}
	return q, nil
})
