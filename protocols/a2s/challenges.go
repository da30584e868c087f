package a2s

import (
	"net/netip"
	"sync"
	"time"
)

const (
	// maxCachedChallenges bounds the challenge cache of one querier: anyone who can
	// reach /probe chooses the targets, so no client-chosen key may grow memory
	// without bound. 4096 entries of about 150 bytes each stay under a MiB.
	maxCachedChallenges = 4096
	// challengeTTL is how long a cached challenge is used. Valve's servers keep one
	// valid for up to 60 minutes (spec §3 rule 6); a sixth of that leaves room for
	// servers that keep them shorter, and a stale one costs only the round trip the
	// cache saves.
	challengeTTL = 10 * time.Minute
)

// challengeCache keeps the last A2S_INFO challenge each target accepted, so the
// next probe sends it at once instead of paying the S2C_CHALLENGE round trip. A
// nil cache (the module's challenge_cache: false) holds nothing.
type challengeCache struct {
	now func() time.Time // time.Now; tests inject a clock

	mu sync.Mutex
	m  map[netip.AddrPort]cachedChallenge
}

type cachedChallenge struct {
	// req is the A2S_INFO request carrying the challenge (steam.InfoRequest and 4
	// bytes), kept whole so a hit costs no allocation. Never written: the traces of
	// the probes that sent it keep it by reference.
	req []byte
	// legacy: the challenge came from A2S_SERVERQUERY_GETCHALLENGE, so players and
	// rules carry it too (exchanger.legacy).
	legacy bool
	at     time.Time
}

// challenge returns the 4 challenge bytes of e.req.
func (e cachedChallenge) challenge() [4]byte { return [4]byte(e.req[len(e.req)-4:]) }

func newChallengeCache() *challengeCache {
	return &challengeCache{now: time.Now, m: make(map[netip.AddrPort]cachedChallenge)}
}

// get returns the challenge stored for addr unless it is older than challengeTTL
// (an older one is forgotten here: no timers).
func (c *challengeCache) get(addr netip.AddrPort) (cachedChallenge, bool) {
	if c == nil {
		return cachedChallenge{}, false
	}
	now := c.now()
	c.mu.Lock()
	defer c.mu.Unlock()
	e, ok := c.m[addr]
	if ok && now.Sub(e.at) >= challengeTTL {
		delete(c.m, addr)
		ok = false
	}
	return e, ok
}

// put stores req, the A2S_INFO request with the challenge addr accepted. When the
// cache is full an arbitrary entry (map iteration order) makes room: an evicted
// target pays one round trip more.
func (c *challengeCache) put(addr netip.AddrPort, req []byte, legacy bool) {
	if c == nil {
		return
	}
	e := cachedChallenge{req: req, legacy: legacy, at: c.now()}
	c.mu.Lock()
	defer c.mu.Unlock()
	if _, ok := c.m[addr]; !ok && len(c.m) >= maxCachedChallenges {
		for k := range c.m {
			delete(c.m, k)
			break
		}
	}
	c.m[addr] = e
}

// drop forgets addr's challenge (it needs none, or the cached one failed).
func (c *challengeCache) drop(addr netip.AddrPort) {
	if c == nil {
		return
	}
	c.mu.Lock()
	delete(c.m, addr)
	c.mu.Unlock()
}

// size reports the number of entries (tests).
func (c *challengeCache) size() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return len(c.m)
}
