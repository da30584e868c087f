package steam

import (
	"net/netip"
	"sync"
	"time"
)

const (
	// MaxCachedChallenges bounds the challenge cache of one querier: anyone who can
	// reach /probe chooses the targets, so no client-chosen key may grow memory
	// without bound. 4096 entries of about 150 bytes each stay under a MiB.
	MaxCachedChallenges = 4096
	// ChallengeTTL is how long a cached challenge is used. Valve's servers keep one
	// valid for up to 60 minutes (spec §3 rule 6); a sixth of that leaves room for
	// servers that keep them shorter, and a stale one costs only the round trip the
	// cache saves.
	ChallengeTTL = 10 * time.Minute
)

// ChallengeCache keeps the last A2S_INFO challenge each target accepted, so the
// next probe sends it at once instead of paying the S2C_CHALLENGE round trip. Each
// querier (one per module) has its own; a nil cache (the module's
// challenge_cache: false) holds nothing.
type ChallengeCache struct {
	// Now is time.Now; tests inject a clock before the cache is used.
	Now func() time.Time

	mu sync.Mutex
	m  map[netip.AddrPort]CachedChallenge
}

// CachedChallenge is one entry of a ChallengeCache.
type CachedChallenge struct {
	// Req is the A2S_INFO request carrying the challenge (InfoRequest and 4 bytes),
	// kept whole so a hit costs no allocation. Never written: the traces of the
	// probes that sent it keep it by reference.
	Req []byte
	// Legacy: the challenge came from A2S_SERVERQUERY_GETCHALLENGE, so players and
	// rules carry it too (package a2s).
	Legacy bool
	at     time.Time
}

// Challenge returns the 4 challenge bytes of e.Req.
func (e CachedChallenge) Challenge() [4]byte { return [4]byte(e.Req[len(e.Req)-4:]) }

// NewChallengeCache returns an empty cache.
func NewChallengeCache() *ChallengeCache {
	return &ChallengeCache{Now: time.Now, m: make(map[netip.AddrPort]CachedChallenge)}
}

// Get returns the challenge stored for addr unless it is older than ChallengeTTL
// (an older one is forgotten here: no timers).
func (c *ChallengeCache) Get(addr netip.AddrPort) (CachedChallenge, bool) {
	if c == nil {
		return CachedChallenge{}, false
	}
	now := c.Now()
	c.mu.Lock()
	defer c.mu.Unlock()
	e, ok := c.m[addr]
	if ok && now.Sub(e.at) >= ChallengeTTL {
		delete(c.m, addr)
		ok = false
	}
	return e, ok
}

// Put stores req, the A2S_INFO request with the challenge addr accepted (the cache
// keeps req itself: it must never be written afterwards). When the cache is full
// an arbitrary entry (map iteration order) makes room: an evicted target pays one
// round trip more.
func (c *ChallengeCache) Put(addr netip.AddrPort, req []byte, legacy bool) {
	if c == nil {
		return
	}
	e := CachedChallenge{Req: req, Legacy: legacy, at: c.Now()}
	c.mu.Lock()
	defer c.mu.Unlock()
	if _, ok := c.m[addr]; !ok && len(c.m) >= MaxCachedChallenges {
		for k := range c.m {
			delete(c.m, k)
			break
		}
	}
	c.m[addr] = e
}

// Drop forgets addr's challenge (it needs none, or the cached one failed).
func (c *ChallengeCache) Drop(addr netip.AddrPort) {
	if c == nil {
		return
	}
	c.mu.Lock()
	delete(c.m, addr)
	c.mu.Unlock()
}

// Len reports the number of entries (tests).
func (c *ChallengeCache) Len() int {
	if c == nil {
		return 0
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	return len(c.m)
}
