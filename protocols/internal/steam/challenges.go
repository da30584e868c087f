package steam

import (
	"bytes"
	"net/netip"
	"sync"
	"time"

	"github.com/gameserver-exporter/gameserver_exporter/protocols"
	"github.com/gameserver-exporter/gameserver_exporter/protocols/wire"
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

// CacheOptions is the options block (`a2s:`, `goldsrc:`) of the protocols that keep
// a ChallengeCache.
type CacheOptions struct {
	// ChallengeCache (default true) sends the A2S_INFO challenge a target accepted
	// on the last probe at once, saving the S2C_CHALLENGE round trip (a2s.md §3
	// rule 6). false turns it off, for servers that misbehave with it and for
	// benchmarks.
	ChallengeCache *bool `yaml:"challenge_cache"`
	// Encoding is the code page of the server's strings: "auto" (the default:
	// UTF-8 when valid, else Windows-1252) or one wire.Encoding names
	// ("windows-1251" for a Cyrillic GoldSrc server): see TextFor.
	Encoding wire.CodePage `yaml:"encoding"`
}

// CacheFor returns the cache a querier of protocol name built from s keeps (one
// per module, rebuilt on reload): nil when its options block turns it off.
func CacheFor(name string, s protocols.Settings) (*ChallengeCache, error) {
	var opts CacheOptions
	if err := s.DecodeOptions(name, &opts); err != nil {
		return nil, err
	}
	if opts.ChallengeCache != nil && !*opts.ChallengeCache {
		return nil, nil
	}
	return NewChallengeCache(), nil
}

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

// CachedInfo returns the cached A2S_INFO request for x.Addr, if x.Cache holds one,
// and says in the trace that the probe begins with it.
func (x *Exchanger) CachedInfo() (CachedChallenge, bool) {
	e, ok := x.Cache.Get(x.Addr)
	if ok {
		x.Tr.Log("A2S_INFO carries the challenge the server accepted on an earlier probe (challenge_cache)")
	}
	return e, ok
}

// Remember updates x.Cache after the A2S_INFO exchange, given whether it got an
// info reply (answered), the cached request the probe began with (hit, nil if
// none), the last A2S_INFO sent (req, which the reply answered) and the challenge
// A2S_SERVERQUERY_GETCHALLENGE handed out (legacy, nil if none). A new challenge
// that got an info reply is kept for the next probe; the cached one, accepted
// again, keeps its age (ChallengeTTL counts from when the server handed it out, so
// it is renewed before the server's own limit). A server that answered a request
// without a challenge, or a cached challenge that ended in failure, leaves nothing.
// The cache keeps req itself: never written after it was built, it serves later
// probes without building it again.
func (x *Exchanger) Remember(answered bool, hit, req []byte, legacy *[4]byte) {
	carries := len(req) == len(InfoRequest)+4 // the -1 request and 0x57 carry none
	switch {
	case answered && carries && !bytes.Equal(req, hit):
		x.Cache.Put(x.Addr, req, legacy != nil && *legacy == [4]byte(req[len(InfoRequest):]))
	case hit != nil && (!answered || !carries):
		x.Cache.Drop(x.Addr)
	}
}
