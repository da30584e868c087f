package master

import (
	"context"
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

// An Awaiter is a Cache that starts some sources on demand (package
// discovery's built-in lists, one per preset): Await starts the source if it
// is such a one and not running, and returns once it has a first fetch behind
// it (its error if that failed and no list is held) or ctx ends. A source
// that is no such one returns at once.
type Awaiter interface {
	Await(ctx context.Context, source string) error
}
