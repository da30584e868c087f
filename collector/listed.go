package collector

import (
	"net"
	"net/netip"
	"strconv"
	"strings"

	"github.com/gameserver-exporter/gameserver_exporter/config"
)

// Lists answers whether a server is in a discovery source's cached list
// (package discovery's Manager): known is false while the source has no list.
type Lists interface {
	Listed(source string, addr netip.AddrPort, host string) (listed, known bool)
}

// ListedIn is whether the probed server is in one source's list.
type ListedIn struct {
	Source string
	Listed bool
}

// listed looks the probed server up in the sources its module names
// (listed_in), from their cached lists: no request per probe. A server is
// listed under its address with the port the target gave (lists hold game
// ports), the address queried (masters that list the query port), or, for a
// target given by name, "name:port" (lists that name their servers).
func (r *Runner) listed(mod *config.Module, o *Outcome, host string, port uint16) []ListedIn {
	if len(mod.ListedIn) == 0 || r.Lists == nil {
		return nil
	}
	var name string
	if _, err := netip.ParseAddr(host); err != nil {
		name = net.JoinHostPort(strings.ToLower(strings.TrimSuffix(host, ".")), strconv.Itoa(int(port)))
	}
	given := netip.AddrPortFrom(o.Addr.Addr(), port)
	out := make([]ListedIn, 0, len(mod.ListedIn))
	for _, src := range mod.ListedIn {
		listed, known := r.Lists.Listed(src, given, name)
		if !listed && known && o.Addr != given {
			listed, known = r.Lists.Listed(src, o.Addr, "")
		}
		if known {
			out = append(out, ListedIn{Source: src, Listed: listed})
		}
	}
	return out
}

// addListed adds gameserver_listed{source}.
func addListed(f *families, o *Outcome) {
	for _, l := range o.Listed {
		f.add(listedMetric, boolf(l.Listed), l.Source)
	}
}
