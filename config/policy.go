package config

import (
	"fmt"
	"net/netip"
	"path"
	"strings"
)

// TargetPolicy decides which targets may be probed. Anyone who can reach /probe can
// make the exporter send packets, so the policy is always on: with nothing
// configured the default policy (defaultDeny) still refuses addresses no game
// server has and that reach things an attacker wants (the cloud metadata service,
// the exporter's own host through 0.0.0.0, multicast groups, broadcast).
//
// Entries are CIDRs ("10.0.0.0/8", "2001:db8::/32", a bare address) or hostname
// patterns ("*.example.org", "game?.example.net", matched case-insensitively with
// path.Match). Every address a target resolves to is judged as the socket will
// use it: the IPv6 zone is dropped (fe80::1%eth0 is fe80::1), an IPv4-mapped
// address is its IPv4 address, and an IPv4 address embedded in an IPv6 one (NAT64,
// 6to4, IPv4-compatible, IPv4-translated) is judged too. A target is refused when
//   - deny: its hostname matches a pattern, or any address, or any IPv4 address
//     embedded in one, lies in a denied CIDR (deny wins over everything);
//   - default: any address or embedded IPv4 address lies in a defaultDeny range,
//     unless an allow CIDR inside that range (as long a prefix or longer) covers
//     it: "169.254.169.254" or "169.254.0.0/16" opens the metadata address, a
//     broad "0.0.0.0/0" does not;
//   - allow (when set): its hostname matches no pattern and some address lies
//     outside every allowed CIDR.
//
// The policy has no port rules: an address refused is refused on every port, so
// checking the addresses covers every candidate query port of a module.
type TargetPolicy struct {
	Allow []string `yaml:"allow,omitempty"`
	Deny  []string `yaml:"deny,omitempty"`

	allow, deny matcher
}

// defaultDeny lists the ranges refused without an explicit allow entry inside them.
// Loopback and private ranges are not here: sidecars and LAN game servers live
// there; deny them in the config when untrusted clients can reach the exporter.
// deniedRange is a range the default policy denies, and what it is.
type deniedRange struct {
	Prefix netip.Prefix
	What   string
}

var defaultDeny = []deniedRange{
	{netip.MustParsePrefix("0.0.0.0/8"), "unspecified (the kernel sends it to this host)"},
	{netip.MustParsePrefix("::/128"), "unspecified (the kernel sends it to this host)"},
	{netip.MustParsePrefix("169.254.0.0/16"), "link-local (the cloud metadata service lives here)"},
	{netip.MustParsePrefix("fe80::/10"), "link-local"},
	{netip.MustParsePrefix("100.100.100.200/32"), "the Alibaba Cloud metadata service"},
	{netip.MustParsePrefix("fd00:ec2::254/128"), "the AWS metadata service"},
	{netip.MustParsePrefix("224.0.0.0/4"), "multicast"},
	{netip.MustParsePrefix("ff00::/8"), "multicast"},
	{netip.MustParsePrefix("255.255.255.255/32"), "broadcast"},
}

type matcher struct {
	prefixes []netip.Prefix
	patterns []string
}

func (m *matcher) compile(entries []string, field string) error {
	for _, raw := range entries {
		e := strings.TrimSpace(raw)
		if e == "" {
			return fmt.Errorf("target_policy.%s: empty entry", field)
		}
		if p, err := netip.ParsePrefix(e); err == nil {
			if p != p.Masked() {
				return fmt.Errorf("target_policy.%s: %q has bits set past the prefix length (did you mean %s?)", field, e, p.Masked())
			}
			if p.Addr().Is4In6() { // ::ffff:10.0.0.0/104: addresses are unmapped before matching
				p = netip.PrefixFrom(p.Addr().Unmap(), p.Bits()-96)
			}
			m.prefixes = append(m.prefixes, p)
			continue
		}
		if a, err := netip.ParseAddr(e); err == nil {
			if a.Zone() != "" {
				return fmt.Errorf("target_policy.%s: %q has a zone; zones are ignored when matching, write %s", field, e, a.WithZone(""))
			}
			a = a.Unmap()
			m.prefixes = append(m.prefixes, netip.PrefixFrom(a, a.BitLen()))
			continue
		}
		if strings.ContainsAny(e, "/:") || strings.Trim(e, "0123456789.") == "" {
			return fmt.Errorf("target_policy.%s: invalid address or CIDR %q", field, e)
		}
		if strings.ContainsAny(e, "0123456789") && strings.Trim(e, "0123456789.*?[]^-\\") == "" {
			return fmt.Errorf("target_policy.%s: %q: address patterns are not supported (a target given as an address is matched by CIDR); write a CIDR", field, e)
		}
		if strings.Trim(e, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789.-_*?[]^\\") != "" {
			return fmt.Errorf("target_policy.%s: invalid hostname pattern %q (letters, digits, '.', '-', '_' and the wildcards * ? [...])", field, e)
		}
		if _, err := path.Match(e, ""); err != nil {
			return fmt.Errorf("target_policy.%s: invalid hostname pattern %q", field, e)
		}
		m.patterns = append(m.patterns, strings.ToLower(e))
	}
	return nil
}

// host returns the pattern h matches, if any.
func (m *matcher) host(h string) (string, bool) {
	h = strings.ToLower(strings.TrimSuffix(h, "."))
	for _, p := range m.patterns {
		if ok, _ := path.Match(p, h); ok {
			return p, true
		}
	}
	return "", false
}

// addr returns the prefix holding a (zone-free and unmapped), if any.
func (m *matcher) addr(a netip.Addr) (netip.Prefix, bool) {
	for _, p := range m.prefixes {
		if p.Contains(a) {
			return p, true
		}
	}
	return netip.Prefix{}, false
}

// opens reports whether an allow entry inside the default range r covers a.
func (m *matcher) opens(r netip.Prefix, a netip.Addr) bool {
	for _, p := range m.prefixes {
		if p.Bits() >= r.Bits() && r.Contains(p.Addr()) && p.Contains(a) {
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

// form is one way to read an address: the address itself (zone dropped, IPv4-mapped
// unmapped) or an IPv4 address embedded in it.
type form struct {
	addr netip.Addr
	how  string // "" for the address itself, else the embedding ("NAT64", ...)
}

var (
	nat64WKP   = netip.MustParsePrefix("64:ff9b::/96")    // RFC 6052 well-known prefix
	nat64Local = netip.MustParsePrefix("64:ff9b:1::/48")  // RFC 8215 local-use prefix
	sixToFour  = netip.MustParsePrefix("2002::/16")       // RFC 3056
	translated = netip.MustParsePrefix("::ffff:0:0:0/96") // RFC 2765 IPv4-translated
	compatible = netip.MustParsePrefix("::/96")           // RFC 4291 IPv4-compatible (deprecated)
)

// nat64Layouts are where RFC 6052 puts the IPv4 address for prefixes of /48, /56,
// /64 and /96 (byte 8 is the reserved u octet). Inside 64:ff9b:1::/48 the operator
// picks the length, so every layout is read.
var nat64Layouts = [...][4]int{{6, 7, 9, 10}, {7, 9, 10, 11}, {9, 10, 11, 12}, {12, 13, 14, 15}}

// forms returns a's readings into dst: a itself first, then the IPv4 addresses a
// packet to a may end up at through a translator or tunnel.
func forms(dst []form, a netip.Addr) []form {
	how := ""
	if a.Is4In6() {
		how = "IPv4-mapped"
	}
	plain := a.WithZone("").Unmap()
	dst = append(dst, form{plain, how})
	if !plain.Is6() {
		return dst
	}
	return translations(dst, plain)
}

// translations appends the IPv4 addresses the IPv6 address plain may reach
// through a translator or tunnel. Out of line: the common IPv4 probe keeps a
// small stack (collector's runner says why).
//
//go:noinline
func translations(dst []form, plain netip.Addr) []form {
	b := plain.As16()
	v4 := func(i, j, k, l int) netip.Addr { return netip.AddrFrom4([4]byte{b[i], b[j], b[k], b[l]}) }
	switch {
	case nat64WKP.Contains(plain):
		dst = append(dst, form{v4(12, 13, 14, 15), "NAT64"})
	case nat64Local.Contains(plain):
		// A layout that reads 0.x.x.x is the zero padding of another layout, not a
		// destination: no translator sends to 0.0.0.0/8.
		for _, l := range nat64Layouts {
			if e := v4(l[0], l[1], l[2], l[3]); b[l[0]] != 0 {
				dst = append(dst, form{e, "NAT64"})
			}
		}
	case sixToFour.Contains(plain):
		dst = append(dst, form{v4(2, 3, 4, 5), "6to4"})
	case translated.Contains(plain):
		dst = append(dst, form{v4(12, 13, 14, 15), "IPv4-translated"})
	case compatible.Contains(plain) && b[12] != 0: // not ::, ::1 and the rest of ::/104
		dst = append(dst, form{v4(12, 13, 14, 15), "IPv4-compatible"})
	}
	return dst
}

// describe names address a of target host as the message reads it.
func describe(host string, isName bool, a netip.Addr, f form) string {
	s := a.String()
	switch {
	case f.how != "":
		s = fmt.Sprintf("%s (the %s form of %s)", s, f.how, f.addr)
	case f.addr != a:
		s = fmt.Sprintf("%s (%s)", s, f.addr)
	}
	if isName {
		s = host + " resolves to " + s
	}
	return s
}

func is(isName bool) string {
	if isName {
		return ", which is "
	}
	return " is "
}

// Check returns why host (resolved to addrs) may not be probed, or nil; isName
// says host is a name, not an address (the caller has parsed it already). A nil or
// empty policy still applies defaultDeny.
func (p *TargetPolicy) Check(host string, isName bool, addrs []netip.Addr) error {
	if p == nil {
		p = &TargetPolicy{}
	}
	if isName {
		if err := p.CheckName(host); err != nil {
			return err
		}
	}
	var buf [1 + len(nat64Layouts)]form
	for _, a := range addrs {
		fs := forms(buf[:0], a)
		for _, f := range fs {
			if r, ok := p.deny.addr(f.addr); ok {
				return deniedByDeny(r, host, isName, a, f)
			}
		}
		for _, f := range fs {
			for i := range defaultDeny {
				if d := &defaultDeny[i]; d.Prefix.Contains(f.addr) && !p.allow.opens(d.Prefix, f.addr) {
					return deniedByDefault(d, host, isName, a, f)
				}
			}
		}
	}
	if len(p.Allow) == 0 {
		return nil
	}
	if outside, ok := p.allow.admits(host, isName, addrs); !ok {
		return notAllowed(host, isName, outside)
	}
	return nil
}

// The errors of Check, out of line: fmt's arguments would grow the frame of every
// probe's policy check (collector's runner says why that matters).

//go:noinline
func deniedByDeny(r netip.Prefix, host string, isName bool, a netip.Addr, f form) error {
	return fmt.Errorf("denied by target_policy.deny %s: %s", r, describe(host, isName, a, f))
}

//go:noinline
func deniedByDefault(d *deniedRange, host string, isName bool, a netip.Addr, f form) error {
	return fmt.Errorf("denied by default policy: %s%s%s; a target_policy.allow entry within %s opens it",
		describe(host, isName, a, f), is(isName), d.What, d.Prefix)
}

//go:noinline
func notAllowed(host string, isName bool, outside netip.Addr) error {
	if !outside.IsValid() {
		return fmt.Errorf("refused by target_policy.allow: %s has no address", host)
	}
	return fmt.Errorf("refused by target_policy.allow: %s%soutside the allowed ranges and names", describe(host, isName, outside, form{addr: outside.WithZone("").Unmap()}), is(isName))
}

// admits reports whether an allow list lets host through: as a name matching a
// pattern, or with every address it resolves to in a listed range. Otherwise it
// returns the first address outside (the zero Addr when there are none).
func (m *matcher) admits(host string, isName bool, addrs []netip.Addr) (outside netip.Addr, ok bool) {
	if _, match := m.host(host); isName && match {
		return netip.Addr{}, true
	}
	if len(addrs) == 0 {
		return netip.Addr{}, false
	}
	for _, a := range addrs {
		if _, in := m.addr(a.WithZone("").Unmap()); !in {
			return a, false
		}
	}
	return netip.Addr{}, true
}

// refuses reports whether the allow list m refuses name whatever it resolves
// to: it lists names only, none of which name matches.
func (m *matcher) refuses(name string) bool {
	if len(m.prefixes) > 0 || len(m.patterns) == 0 {
		return false
	}
	_, match := m.host(name)
	return !match
}

// CheckNameFirst returns why a name may not be probed whatever it resolves to,
// or nil: it matches a deny pattern, or the allow list holds names only and
// none matches. The runner asks it before any lookup of the name (SRV, DNS),
// so that a denied name is never looked up (a caller could otherwise learn
// which denied names exist); the addresses a name resolves to are judged by
// Check after the lookup.
func (p *TargetPolicy) CheckNameFirst(name string) error {
	if err := p.CheckName(name); err != nil || p == nil {
		return err
	}
	if p.allow.refuses(name) {
		return nameNotAllowed(name)
	}
	return nil
}

//go:noinline
func nameNotAllowed(name string) error {
	return fmt.Errorf("refused by target_policy.allow: %s matches none of its names (it lists no addresses)", name)
}

// CheckName applies the deny patterns to a name the probe looks up: the target's,
// or the one its SRV record points to.
func (p *TargetPolicy) CheckName(name string) error {
	if p == nil {
		return nil
	}
	if pat, ok := p.deny.host(name); ok {
		return fmt.Errorf("denied by target_policy.deny %q: %s", pat, name)
	}
	return nil
}
