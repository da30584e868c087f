package steamtest

import (
	"bytes"
	"net/netip"
	"sync"
	"testing"
	"time"

	"github.com/gameserver-exporter/gameserver_exporter/protocols"
	"github.com/gameserver-exporter/gameserver_exporter/protocols/internal/steam"
	"github.com/gameserver-exporter/gameserver_exporter/protocols/prototest"
)

// CacheStep is one probe of a sequence against the same querier and fake
// server, checking the challenge cache (challenge_cache).
type CacheStep struct {
	Challenge []byte        // the server's challenge from this probe on (nil: unchanged)
	Advance   time.Duration // the cache's clock moves on before the probe
	Reqs      int           // datagrams the probe sends
	Phases    string        // prototest.PhaseNames
	Hit       bool          // the probe starts with a cached challenge (trace log line)
	Cached    bool          // afterwards the cache holds the server's current challenge (else nothing)
}

// CacheFake is what a cache run asks of a family's fake server.
type CacheFake interface {
	SetChallenge(ch []byte)
	Current() []byte        // the challenge it hands out now
	Requests() int          // the datagrams it got
	InfoRequests() [][]byte // the A2S_INFO datagrams it got, in order
}

// CacheRun is one sequence of probes of a fake server by one querier.
type CacheRun struct {
	Querier protocols.Querier
	Cache   *steam.ChallengeCache // the querier's; nil only when Off
	Off     bool                  // challenge_cache: false
	Fake    CacheFake
	Addr    netip.AddrPort
	Timeout time.Duration
	Name    string // the server's name, read by every probe
	// InfoOnly: every datagram a probe sends is an A2S_INFO.
	InfoOnly bool
	Steps    []CacheStep
}

// Run probes step by step, the cache's clock under the test's control: each
// probe succeeds in every phase, sends Reqs datagrams, its first A2S_INFO
// carries a challenge exactly when it is a hit, and the cache then holds the
// server's challenge when Cached.
func (r CacheRun) Run(t *testing.T) {
	t.Helper()
	clk := prototest.NewClock(time.Unix(1e9, 0))
	if r.Cache != nil {
		r.Cache.Now = clk.Now
	} else if !r.Off {
		t.Fatal("no challenge cache by default")
	}
	for i, st := range r.Steps {
		if st.Challenge != nil {
			r.Fake.SetChallenge(st.Challenge)
		}
		clk.Advance(st.Advance)
		before, beforeInfo := r.Fake.Requests(), len(r.Fake.InfoRequests())
		res, tr, err := prototest.QueryWithin(t, r.Querier, r.Addr, r.Timeout)
		if err != nil || len(res.PhaseErrors) != 0 || res.Name != r.Name {
			t.Fatalf("probe %d: %v %+v", i+1, err, res)
		}
		if n := r.Fake.Requests() - before; n != st.Reqs {
			t.Errorf("probe %d: %d requests, want %d", i+1, n, st.Reqs)
		}
		if got := prototest.PhaseNames(tr); got != st.Phases {
			t.Errorf("probe %d: phases %s, want %s", i+1, got, st.Phases)
		}
		if hit := prototest.Logged(tr, "challenge_cache"); hit != st.Hit {
			t.Errorf("probe %d: hit logged %v, want %v", i+1, hit, st.Hit)
		}
		reqs := r.Fake.InfoRequests()[beforeInfo:]
		if r.InfoOnly && len(reqs) != st.Reqs {
			t.Errorf("probe %d: %d A2S_INFO, want %d", i+1, len(reqs), st.Reqs)
		}
		// A hit begins with a challenge; without one the probe sends -1 (the plain request).
		if len(reqs) > 0 {
			if carries := len(reqs[0]) == len(steam.InfoRequest)+4; carries != st.Hit || !bytes.HasPrefix(reqs[0], steam.InfoRequest) {
				t.Errorf("probe %d: first A2S_INFO % x, want a challenge: %v", i+1, reqs[0], st.Hit)
			}
		}
		if r.Cache == nil {
			continue
		}
		got, ok := r.Cache.Get(r.Addr)
		if ok != st.Cached || ok && !bytes.Equal(got.Req, steam.WithChallenge(steam.InfoRequest, r.Fake.Current())) {
			t.Errorf("probe %d: cache holds % x %v, want % x %v", i+1, got.Req, ok, r.Fake.Current(), st.Cached)
		}
	}
}

// CacheConcurrent runs two rounds of concurrent probes of one target by q
// (run with -race): all succeed, and the cache ends with the server's challenge.
func CacheConcurrent(t *testing.T, q protocols.Querier, cache *steam.ChallengeCache, addr netip.AddrPort, want []byte) {
	t.Helper()
	for round := range 2 {
		var wg sync.WaitGroup
		for range 8 {
			wg.Go(func() {
				if _, _, err := prototest.QueryWithin(t, q, addr, 3*time.Second); err != nil {
					t.Errorf("round %d: %v", round, err)
				}
			})
		}
		wg.Wait()
		if e, ok := cache.Get(addr); !ok || !bytes.Equal(e.Req[len(e.Req)-4:], want) {
			t.Fatalf("round %d: cache %v %v", round, e, ok)
		}
	}
}

// CacheCase is a sequence of probes of one fake server by one querier.
type CacheCase struct {
	Name  string
	Fake  CacheFake
	Off   bool // challenge_cache: false
	Steps []CacheStep
	// For CacheSuite: the probes' deadline (0: the suite's), whether they ask
	// for players, a challenge in the cache before the first probe.
	Timeout time.Duration
	Players bool
	Seed    []byte
}

// CommonCacheCases are the sequences every caching querier of the family
// passes; newFake makes a fake server handing out challenge a, wanting it on
// A2S_INFO when infoChallenge.
func CommonCacheCases(newFake func(infoChallenge bool) CacheFake) []CacheCase {
	const challenge, info = "challenge,info", "info"
	return []CacheCase{
		{Name: "first probe pays the challenge, the next ones do not", Fake: newFake(true),
			Steps: []CacheStep{{Reqs: 2, Phases: challenge, Cached: true},
				{Reqs: 1, Phases: info, Hit: true, Cached: true}, {Reqs: 1, Phases: info, Hit: true, Cached: true}}},
		{Name: "a new challenge is followed and kept", Fake: newFake(true),
			Steps: []CacheStep{{Reqs: 2, Phases: challenge, Cached: true},
				{Challenge: []byte{0x55, 0x66, 0x77, 0x88}, Reqs: 2, Phases: challenge, Hit: true, Cached: true},
				{Reqs: 1, Phases: info, Hit: true, Cached: true}}},
		{Name: "a server that needs no challenge leaves nothing", Fake: newFake(false),
			Steps: []CacheStep{{Reqs: 1, Phases: info}, {Reqs: 1, Phases: info}}},
		{Name: "off: every probe pays the challenge", Fake: newFake(true), Off: true,
			Steps: []CacheStep{{Reqs: 2, Phases: challenge}, {Reqs: 2, Phases: challenge}, {Reqs: 2, Phases: challenge}}},
		{Name: "an expired challenge is not used", Fake: newFake(true),
			Steps: []CacheStep{{Reqs: 2, Phases: challenge, Cached: true},
				{Advance: steam.ChallengeTTL - time.Second, Reqs: 1, Phases: info, Hit: true, Cached: true},
				{Advance: time.Second, Reqs: 2, Phases: challenge, Cached: true}, {Reqs: 1, Phases: info, Hit: true, Cached: true}}},
	}
}
