package master

import (
	"net/netip"
	"sync/atomic"
)

// Cache is the exporter's cache of fetched lists (package discovery's
// Manager), which protocol list reads a server's status from.
type Cache interface {
	// Lookup finds a server in a source's last good list by address, or by
	// "name:port" for a list that names servers. known is false when the
	// source does not exist or has no list yet.
	Lookup(source string, addr netip.AddrPort, host string) (e Entry, listed, known bool)
}

// cache is set once by the exporter at start: the lists are the process's, as
// its sockets are, and a querier built at config load finds them here.
var cache atomic.Pointer[Cache]

// SetCache makes c the lists protocol list reads (nil: none).
func SetCache(c Cache) {
	if c == nil {
		cache.Store(nil)
		return
	}
	cache.Store(&c)
}

// Cached returns the lists set by SetCache, or nil.
func Cached() Cache {
	if p := cache.Load(); p != nil {
		return *p
	}
	return nil
}
