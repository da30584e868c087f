package steam

import (
	"net/netip"
	"sync"
	"testing"
	"time"

	"github.com/gameserver-exporter/gameserver_exporter/protocols/prototest"
)

// infoWith is A2S_INFO carrying the challenge ch.
func infoWith(ch ...byte) []byte { return WithChallenge(InfoRequest, ch) }

func TestChallengeCacheBounded(t *testing.T) {
	t.Parallel()
	c := NewChallengeCache()
	var last netip.AddrPort
	for i := range 10_000 {
		last = netip.AddrPortFrom(netip.AddrFrom4([4]byte{10, 0, byte(i >> 8), byte(i)}), 27015)
		c.Put(last, infoWith(byte(i), 1, 2, 3), false)
		if n := c.Len(); n > MaxCachedChallenges {
			t.Fatalf("%d entries after %d puts, cap %d", n, i+1, MaxCachedChallenges)
		}
	}
	if n := c.Len(); n != MaxCachedChallenges {
		t.Errorf("size = %d, want %d", n, MaxCachedChallenges)
	}
	if e, ok := c.Get(last); !ok || e.Challenge() != [4]byte{byte(9999 & 0xFF), 1, 2, 3} {
		t.Errorf("the last put is missing: %v %v", e, ok)
	}
	// Replacing a present key evicts nothing.
	c.Put(last, infoWith(9, 9, 9, 9), false)
	if n := c.Len(); n != MaxCachedChallenges {
		t.Errorf("size after replace = %d, want %d", n, MaxCachedChallenges)
	}
}

func TestChallengeCacheTTL(t *testing.T) {
	t.Parallel()
	clk := prototest.NewClock(time.Unix(1e9, 0))
	c := NewChallengeCache()
	c.Now = clk.Now
	addr := netip.MustParseAddrPort("127.0.0.1:27015")
	c.Put(addr, infoWith(1, 2, 3, 4), true)
	for _, tt := range []struct {
		advance time.Duration
		ok      bool
	}{
		{0, true},
		{ChallengeTTL - time.Nanosecond, true},
		{time.Nanosecond, false}, // exactly the TTL: too old
		{-time.Minute, false},    // an expired entry was forgotten, not just hidden
	} {
		clk.Advance(tt.advance)
		e, ok := c.Get(addr)
		if ok != tt.ok || ok && (e.Challenge() != [4]byte{1, 2, 3, 4} || !e.Legacy) {
			t.Errorf("after %v: %v %v, want ok=%v", tt.advance, e, ok, tt.ok)
		}
	}
}

func TestChallengeCacheDrop(t *testing.T) {
	t.Parallel()
	c := NewChallengeCache()
	a, b := netip.MustParseAddrPort("127.0.0.1:27015"), netip.MustParseAddrPort("[::1]:27015")
	c.Put(a, infoWith(1, 2, 3, 4), false)
	c.Put(b, infoWith(5, 6, 7, 8), false)
	c.Drop(a)
	c.Drop(a) // dropping what is not there is harmless
	if _, ok := c.Get(a); ok {
		t.Error("a dropped challenge is still there")
	}
	if e, ok := c.Get(b); !ok || e.Challenge() != [4]byte{5, 6, 7, 8} || e.Legacy {
		t.Errorf("the other target's challenge: %v %v", e, ok)
	}
}

func TestChallengeCacheNil(t *testing.T) {
	t.Parallel()
	var off *ChallengeCache // challenge_cache: false
	addr := netip.MustParseAddrPort("127.0.0.1:27015")
	off.Put(addr, infoWith(1, 2, 3, 4), false)
	off.Drop(addr)
	if _, ok := off.Get(addr); ok {
		t.Error("a nil cache holds a challenge")
	}
	if n := off.Len(); n != 0 {
		t.Errorf("a nil cache has %d entries", n)
	}
}

// Concurrent users of one cache (run with -race).
func TestChallengeCacheConcurrent(t *testing.T) {
	t.Parallel()
	c := NewChallengeCache()
	var wg sync.WaitGroup
	for i := range 8 {
		wg.Go(func() {
			addr := netip.AddrPortFrom(netip.AddrFrom4([4]byte{127, 0, 0, byte(i % 2)}), 27015)
			for j := range 200 {
				switch j % 3 {
				case 0:
					c.Put(addr, infoWith(byte(i), byte(j), 0, 0), false)
				case 1:
					if e, ok := c.Get(addr); ok && len(e.Req) != len(InfoRequest)+4 {
						t.Errorf("entry % x", e.Req)
					}
				default:
					c.Drop(addr)
				}
			}
		})
	}
	wg.Wait()
	if n := c.Len(); n > 2 {
		t.Errorf("%d entries for 2 targets", n)
	}
}
