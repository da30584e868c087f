package minecraft

import (
	"context"
	"net"
	"net/netip"
	"strings"
)

// resolver is the part of *net.Resolver that lookupSRVWith needs.
type resolver interface {
	LookupSRV(ctx context.Context, service, proto, name string) (cname string, addrs []*net.SRV, err error)
}

// lookupSRV looks up `_minecraft._tcp.<host>` with the default resolver; see
// lookupSRVWith.
func lookupSRV(ctx context.Context, host string) (target string, port uint16, ok bool) {
	return lookupSRVWith(ctx, net.DefaultResolver, host)
}

// lookupSRVWith returns the target and port of the first usable record of
// `_minecraft._tcp.<host>` (the resolver orders them by priority and weight),
// the way the vanilla client finds a server given as a bare host name. ok is
// false for an IP literal, when there is no record, on any lookup error, and for
// the "." target that means "no service here": the caller then connects to
// host:25565 as usual. The caller resolves target to addresses itself.
func lookupSRVWith(ctx context.Context, r resolver, host string) (target string, port uint16, ok bool) {
	host = strings.TrimSuffix(host, ".")
	if host == "" {
		return "", 0, false
	}
	if _, err := netip.ParseAddr(strings.Trim(host, "[]")); err == nil {
		return "", 0, false
	}
	// net.Resolver returns the valid records alongside an error when some were
	// malformed: use what it returns.
	_, recs, _ := r.LookupSRV(ctx, "minecraft", "tcp", host)
	for _, rec := range recs {
		if rec == nil || rec.Port == 0 {
			continue
		}
		t := strings.TrimSuffix(rec.Target, ".")
		if t == "" {
			return "", 0, false // RFC 2782: the service is decidedly not available
		}
		return t, rec.Port, true
	}
	return "", 0, false
}
