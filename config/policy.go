package config

import (
	"fmt"
	"net/netip"
	"path"
	"strings"
)

// TargetPolicy decides which targets may be probed. Without one every target is
// allowed, as in blackbox_exporter; an exporter reachable by untrusted clients
// should set one, or it is an open UDP reflector.
//
// Entries are CIDRs ("10.0.0.0/8", "2001:db8::/32", a bare address) or hostname
// patterns ("*.example.org", "game?.example.net", matched case-insensitively with
// path.Match). A target is allowed when it passes allow and is not caught by deny:
//   - allow (empty: everything): the target's hostname matches a pattern, or every
//     address the name resolves to lies in an allowed CIDR;
//   - deny: the hostname matches a pattern, or any resolved address lies in a
//     denied CIDR. Deny wins, so a name that resolves into a denied range is
//     refused whatever its name.
type TargetPolicy struct {
	Allow []string `yaml:"allow,omitempty"`
	Deny  []string `yaml:"deny,omitempty"`

	allow, deny matcher
}

type matcher struct {
	prefixes []netip.Prefix
	patterns []string
}

func (m *matcher) compile(entries []string, field string) error {
	for _, e := range entries {
		e = strings.TrimSpace(e)
		if p, err := netip.ParsePrefix(e); err == nil {
			m.prefixes = append(m.prefixes, p.Masked())
			continue
		}
		if a, err := netip.ParseAddr(e); err == nil {
			m.prefixes = append(m.prefixes, netip.PrefixFrom(a.Unmap(), a.Unmap().BitLen()))
			continue
		}
		if strings.Contains(e, "/") {
			return fmt.Errorf("target_policy.%s: invalid CIDR %q", field, e)
		}
		if _, err := path.Match(e, ""); err != nil || e == "" {
			return fmt.Errorf("target_policy.%s: invalid hostname pattern %q", field, e)
		}
		m.patterns = append(m.patterns, strings.ToLower(e))
	}
	return nil
}

func (m *matcher) host(h string) bool {
	h = strings.ToLower(strings.TrimSuffix(h, "."))
	for _, p := range m.patterns {
		if ok, _ := path.Match(p, h); ok {
			return true
		}
	}
	return false
}

func (m *matcher) addr(a netip.Addr) bool {
	a = a.Unmap()
	for _, p := range m.prefixes {
		if p.Contains(a) {
			return true
		}
	}
	return false
}

func (p *TargetPolicy) compile() error {
	p.allow, p.deny = matcher{}, matcher{}
	if err := p.allow.compile(p.Allow, "allow"); err != nil {
		return err
	}
	return p.deny.compile(p.Deny, "deny")
}

// Check returns why host (resolved to addrs) may not be probed, or nil.
func (p *TargetPolicy) Check(host string, addrs []netip.Addr) error {
	if p == nil || (len(p.Allow) == 0 && len(p.Deny) == 0) {
		return nil
	}
	isName := true
	if _, err := netip.ParseAddr(host); err == nil {
		isName = false
	}
	if isName && p.deny.host(host) {
		return fmt.Errorf("target %s matches a denied hostname pattern", host)
	}
	for _, a := range addrs {
		if p.deny.addr(a) {
			return fmt.Errorf("target %s resolves to %s, in a denied range", host, a)
		}
	}
	if len(p.Allow) == 0 || (isName && p.allow.host(host)) {
		return nil
	}
	for _, a := range addrs {
		if !p.allow.addr(a) {
			return fmt.Errorf("target %s resolves to %s, outside the allowed ranges and names", host, a)
		}
	}
	if len(addrs) == 0 {
		return fmt.Errorf("target %s is not allowed", host)
	}
	return nil
}
