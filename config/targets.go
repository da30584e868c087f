package config

import (
	"fmt"
	"net/netip"
	"sort"
	"strings"

	"gopkg.in/yaml.v3"
)

// A module that carries a credential (a password, a token) sends it with every
// query: to whatever target the caller of /probe names. So such a module must
// list the targets it may query (targets:), the only places its secret goes; a
// probe of any other target fails with reason target_not_allowed before a packet
// leaves. A module whose protocol queries a fixed service instead of the target
// (OffTarget, like eos: the credential goes to the API the module names) needs no
// list.
//
// targets entries are what target_policy takes: addresses, CIDRs, and host name
// patterns. A target given as a name is allowed when the name matches a pattern
// (it is then resolved as the operator's DNS says) or when every address it
// resolves to lies in a listed CIDR; one given as an address when the address does.

// secretOptions returns the option keys of m's protocol block that carry a
// credential (see secretKeys), inline or as a *_file, sorted.
func (m *Module) secretOptions() []string {
	node, ok := m.Options[m.Protocol]
	if !ok {
		return nil
	}
	var out []string
	var walk func(n *yaml.Node, path string)
	walk = func(n *yaml.Node, path string) {
		if n.Kind != yaml.MappingNode {
			return
		}
		for i := 0; i+1 < len(n.Content); i += 2 {
			k, v := n.Content[i].Value, n.Content[i+1]
			switch {
			case v.Kind == yaml.MappingNode:
				walk(v, path+k+".")
			case v.Kind == yaml.ScalarNode && v.Value != "" && (isSecretKey(k) || isSecretKey(strings.TrimSuffix(k, "_file"))):
				out = append(out, path+k)
			}
		}
	}
	walk(&node, m.Protocol+".")
	sort.Strings(out)
	return out
}

// compileTargets checks that a module carrying a credential lists its targets, and
// compiles the list.
func (m *Module) compileTargets() error {
	m.targets = matcher{}
	if err := m.targets.compile(m.Targets, "targets"); err != nil {
		return &fieldError{"targets", strings.Replace(err.Error(), "target_policy.targets", "targets", 1)}
	}
	if m.proto.OffTarget || len(m.Targets) > 0 {
		return nil
	}
	if keys := m.secretOptions(); len(keys) > 0 {
		return &fieldError{"targets", fmt.Sprintf("the module sends a credential (%s) to the servers it probes: list them in targets: "+
			"(addresses, CIDRs or host names) so that it goes to no other", strings.Join(keys, ", "))}
	}
	return nil
}

// CheckTargetName returns why the module may not query the name host whatever
// it resolves to, or nil: its targets are names only and none matches. The
// runner asks it before looking the name up.
func (m *Module) CheckTargetName(host string) error {
	if m.targets.refuses(host) {
		return fmt.Errorf("%s is not among the module's targets", host)
	}
	return nil
}

// CheckTarget returns why the module may not query host (resolved to addrs; isName
// says host is a name), or nil: only modules with targets: restrict.
func (m *Module) CheckTarget(host string, isName bool, addrs []netip.Addr) error {
	if len(m.Targets) == 0 {
		return nil
	}
	if outside, ok := m.targets.admits(host, isName, addrs); !ok {
		if !outside.IsValid() {
			return fmt.Errorf("%s is not among the module's targets", host)
		}
		return fmt.Errorf("%s is not among the module's targets", describe(host, isName, outside, form{addr: outside.WithZone("").Unmap()}))
	}
	return nil
}
