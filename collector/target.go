package collector

import (
	"context"
	"errors"
	"fmt"
	"math"
	"net"
	"net/netip"
	"slices"
	"strconv"
	"strings"

	"github.com/gameserver-exporter/gameserver_exporter/config"
	"github.com/gameserver-exporter/gameserver_exporter/protocols/wire"
)

// parseTarget splits a target into host and port. Accepted forms: host, host:port,
// v4addr, v4addr:port, [v6addr]:port, v6addr. A missing port is 0.
func parseTarget(target string) (host string, port uint16, err error) {
	if target == "" {
		return "", 0, errors.New("target parameter is missing")
	}
	if len(target) > 255 {
		return "", 0, errors.New("target is longer than 255 characters")
	}
	// The usual form first, without building errors: an IPv4 address and a port.
	if ap, err := netip.ParseAddrPort(target); err == nil && ap.Addr().Is4() && ap.Port() != 0 {
		return target[:strings.LastIndexByte(target, ':')], ap.Port(), nil
	}
	if a, err := netip.ParseAddr(target); err == nil {
		return a.String(), 0, nil
	}
	h, p, err := net.SplitHostPort(target)
	if err != nil {
		var ae *net.AddrError
		if errors.As(err, &ae) && strings.Contains(ae.Err, "missing port") {
			h, p = target, ""
		} else {
			return "", 0, fmt.Errorf("invalid target %q: %v", target, err)
		}
	}
	if p != "" {
		n, err := strconv.ParseUint(p, 10, 16)
		if err != nil || n == 0 {
			return "", 0, fmt.Errorf("invalid port %q in target %q", p, target)
		}
		port = uint16(n)
	}
	if !validHost(h) {
		return "", 0, fmt.Errorf("invalid host %q in target %q", h, target)
	}
	return h, port, nil
}

func validHost(h string) bool {
	if h == "" {
		return false
	}
	if _, err := netip.ParseAddr(h); err == nil {
		return true
	}
	for _, c := range h {
		if !(c == '.' || c == '-' || c == '_' || c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z') {
			return false
		}
	}
	return true
}

// queryPorts applies the module's offsets to the game port: the query ports to try,
// in order, without repeats, in out's memory when it has room.
func queryPorts(out []uint16, game uint16, offsets []int) ([]uint16, error) {
	out = out[:0]
	for _, off := range offsets {
		p := int(game) + off
		if p <= 0 || p > math.MaxUint16 {
			return nil, fmt.Errorf("port %d + offset %d is out of range", game, off)
		}
		if !slices.Contains(out, uint16(p)) {
			out = append(out, uint16(p))
		}
	}
	return out, nil
}

// Resolver looks up a host's addresses. net.DefaultResolver satisfies it.
type Resolver interface {
	LookupNetIP(ctx context.Context, network, host string) ([]netip.Addr, error)
}

// resolve returns every address of host, the preferred family first (only the
// preferred family when fallback is off).
func resolve(ctx context.Context, r Resolver, host, preferred string, fallback bool) ([]netip.Addr, error) {
	if a, err := netip.ParseAddr(host); err == nil {
		return []netip.Addr{a.Unmap()}, nil
	}
	addrs, err := r.LookupNetIP(ctx, "ip", host)
	if err != nil {
		return nil, fmt.Errorf("%w: %v", wire.ErrDNS, err)
	}
	var first, second []netip.Addr
	for _, a := range addrs {
		a = a.Unmap()
		if a.Is4() == (preferred == "ip4") {
			first = append(first, a)
		} else if fallback {
			second = append(second, a)
		}
	}
	out := append(first, second...)
	if len(out) == 0 {
		return nil, fmt.Errorf("%w: %s has no %s address", wire.ErrDNS, host, preferred)
	}
	return out, nil
}

// checkPolicy applies the target policy before any packet leaves: to the target
// host, to the name its SRV record points to (queryHost), and to every address
// either resolved to, not only the first one the query uses. The policy has no
// port rules, so this covers every candidate query port too.
func checkPolicy(p *config.TargetPolicy, host, queryHost string, isName bool, addrs []netip.Addr) error {
	if queryHost != host {
		if err := p.CheckName(queryHost); err != nil {
			return err
		}
	}
	return p.Check(host, isName, addrs)
}
