package goldsrc

import (
	"bytes"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/gameserver-exporter/gameserver_exporter/protocols"
	"github.com/gameserver-exporter/gameserver_exporter/protocols/internal/steam"
	"github.com/gameserver-exporter/gameserver_exporter/protocols/prototest"
)

// cacheStep is one probe of a sequence against the same querier and fake server.
type cacheStep struct {
	challenge []byte        // the server's challenge from this probe on (nil: unchanged)
	advance   time.Duration // the cache's clock moves on before the probe
	reqs      int           // A2S_INFO datagrams the probe sends (and nothing else)
	phases    string
	hit       bool // the probe starts with a cached challenge (trace log line)
	cached    bool // afterwards the cache holds the server's current challenge (else nothing)
}

func TestChallengeCache(t *testing.T) {
	t.Parallel()
	a, b := []byte{0x4B, 0xA1, 0xD5, 0x22}, []byte{0x55, 0x66, 0x77, 0x88}
	const challenged, info = "challenge,info", "info"
	for _, tt := range []struct {
		name    string
		fake    *fake
		off     bool   // challenge_cache: false
		seed    []byte // a challenge in the cache before the first probe
		timeout time.Duration
		steps   []cacheStep
	}{
		{name: "first probe pays the challenge, the next ones do not",
			fake: &fake{infoChallenge: true, chal: a},
			steps: []cacheStep{
				{reqs: 2, phases: challenged, cached: true},
				{reqs: 1, phases: info, hit: true, cached: true},
				{reqs: 1, phases: info, hit: true, cached: true},
			}},
		{name: "a new challenge is followed and kept",
			fake: &fake{infoChallenge: true, chal: a},
			steps: []cacheStep{
				{reqs: 2, phases: challenged, cached: true},
				{challenge: b, reqs: 2, phases: challenged, hit: true, cached: true},
				{reqs: 1, phases: info, hit: true, cached: true},
			}},
		{name: "a server dropping a stale challenge gets A2S_INFO without it in the first stage",
			fake:    &fake{infoChallenge: true, dropWrong: true, chal: a},
			timeout: lateDeadline,
			steps: []cacheStep{
				{reqs: 2, phases: challenged, cached: true},
				// the stale one (silence), the plain one, the new challenge: no text query
				{challenge: b, reqs: 3, phases: challenged, hit: true, cached: true},
				{reqs: 1, phases: info, hit: true, cached: true},
			}},
		{name: "a server that needs no challenge leaves nothing",
			fake: &fake{},
			steps: []cacheStep{
				{reqs: 1, phases: info},
				{reqs: 1, phases: info},
			}},
		{name: "a plain A2S_INFO answered at once drops the cached challenge",
			fake:    &fake{dropWrong: true, chal: a},
			seed:    b,
			timeout: lateDeadline,
			steps: []cacheStep{
				{reqs: 2, phases: info, hit: true},
				{reqs: 1, phases: info},
			}},
		{name: "off: every probe pays the challenge",
			fake: &fake{infoChallenge: true, chal: a},
			off:  true,
			steps: []cacheStep{
				{reqs: 2, phases: challenged},
				{reqs: 2, phases: challenged},
				{reqs: 2, phases: challenged},
			}},
		{name: "an expired challenge is not used",
			fake: &fake{infoChallenge: true, chal: a},
			steps: []cacheStep{
				{reqs: 2, phases: challenged, cached: true},
				{advance: steam.ChallengeTTL - time.Second, reqs: 1, phases: info, hit: true, cached: true},
				{advance: time.Second, reqs: 2, phases: challenged, cached: true},
				{reqs: 1, phases: info, hit: true, cached: true},
			}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			f := tt.fake
			f.a2sInfo = one(readHex(t, "info_I_goldsrc.hex"))
			addr := f.start(t)
			q := newCachingQuerier(t, tt.off)
			clk := prototest.NewClock(time.Unix(1e9, 0))
			if q.Challenges != nil {
				q.Challenges.Now = clk.Now
			} else if !tt.off {
				t.Fatal("no challenge cache by default")
			}
			if tt.seed != nil {
				q.Challenges.Put(addr, steam.WithChallenge(steam.InfoRequest, tt.seed), false)
			}
			timeout := tt.timeout
			if timeout == 0 {
				timeout = answerDeadline
			}
			for i, st := range tt.steps {
				if st.challenge != nil {
					f.setChallenge(st.challenge)
				}
				clk.Advance(st.advance)
				before, beforeInfo := len(f.requests()), len(f.infoRequests())
				res, tr, err := prototest.QueryWithin(t, q, addr, timeout)
				if err != nil {
					t.Fatalf("probe %d: %v", i+1, err)
				}
				eq(t, "name", res.Name, "CS 1.6 Server")
				if n := len(f.requests()) - before; n != st.reqs {
					t.Errorf("probe %d: %d requests, want %d: %v", i+1, n, st.reqs, f.requests()[before:])
				}
				reqs := f.infoRequests()[beforeInfo:]
				if len(reqs) != st.reqs {
					t.Errorf("probe %d: %d A2S_INFO, want %d", i+1, len(reqs), st.reqs)
				}
				eq(t, "phases", phases(tr), st.phases)
				eq(t, "hit logged", prototest.Logged(tr, "challenge_cache"), st.hit)
				if len(reqs) > 0 {
					// A hit begins with a challenge; without one the probe sends -1 (the
					// plain request).
					if carries := len(reqs[0]) == len(steam.InfoRequest)+4; carries != st.hit || !bytes.HasPrefix(reqs[0], steam.InfoRequest) {
						t.Errorf("probe %d: first A2S_INFO % x, want a challenge: %v", i+1, reqs[0], st.hit)
					}
				}
				got, ok := q.Challenges.Get(addr)
				if ok != st.cached || ok && !bytes.Equal(got.Req, steam.WithChallenge(steam.InfoRequest, f.current())) {
					t.Errorf("probe %d: cache holds % x %v, want % x %v", i+1, got.Req, ok, f.current(), st.cached)
				}
			}
		})
	}
}

// The cache is the querier's (one per module): another querier pays the challenge.
func TestChallengeCachePerQuerier(t *testing.T) {
	t.Parallel()
	f := &fake{a2sInfo: one(readHex(t, "info_I_goldsrc.hex")), infoChallenge: true}
	addr := f.start(t)
	q1, q2 := newCachingQuerier(t, false), newCachingQuerier(t, false)
	for i, tt := range []struct {
		q    *querier
		reqs int
	}{{q1, 2}, {q1, 1}, {q2, 2}, {q2, 1}, {q1, 1}} {
		before := f.count("A2S_INFO")
		if _, _, err := prototest.QueryWithin(t, tt.q, addr, answerDeadline); err != nil {
			t.Fatalf("probe %d: %v", i+1, err)
		}
		if n := f.count("A2S_INFO") - before; n != tt.reqs {
			t.Errorf("probe %d: %d A2S_INFO, want %d", i+1, n, tt.reqs)
		}
	}
}

// The players phase is unchanged by the cache: A2S_PLAYER still follows its own
// challenge, and the dialect stays A2S.
func TestChallengeCachePlayers(t *testing.T) {
	t.Parallel()
	f := &fake{a2sInfo: one(readHex(t, "info_I_goldsrc.hex")), infoChallenge: true, players: one(readHex(t, "players_D.hex"))}
	addr := f.start(t)
	pq, err := newQuerier(protocols.Settings{Players: true})
	if err != nil {
		t.Fatal(err)
	}
	for i, want := range []string{"challenge,info,players", "info,players"} {
		res, tr, err := prototest.QueryWithin(t, pq, addr, answerDeadline)
		if err != nil || len(res.PhaseErrors) != 0 {
			t.Fatalf("probe %d: %v %v", i+1, err, res)
		}
		eq(t, "players", len(res.PlayerList), 3)
		eq(t, "phases", phases(tr), want)
	}
	eq(t, "requests", strings.Join(f.requests(), ","), "A2S_INFO,A2S_INFO,A2S_PLAYER,A2S_PLAYER,A2S_INFO,A2S_PLAYER,A2S_PLAYER")
}

// Concurrent probes of one target share the cache (run with -race): all succeed,
// and the cache ends with the server's challenge.
func TestChallengeCacheConcurrent(t *testing.T) {
	t.Parallel()
	f := &fake{a2sInfo: one(readHex(t, "info_I_goldsrc.hex")), infoChallenge: true, dropWrong: true}
	addr := f.start(t)
	q := newCachingQuerier(t, false)
	for round := range 2 {
		var wg sync.WaitGroup
		for range 8 {
			wg.Go(func() {
				if _, _, err := prototest.QueryWithin(t, q, addr, answerDeadline); err != nil {
					t.Errorf("round %d: %v", round, err)
				}
			})
		}
		wg.Wait()
		if e, ok := q.Challenges.Get(addr); !ok || !bytes.Equal(e.Req[len(e.Req)-4:], challenge) {
			t.Fatalf("round %d: cache %v %v", round, e, ok)
		}
	}
}

// newCachingQuerier returns a querier with the default options, or with
// challenge_cache: false when off.
func newCachingQuerier(t *testing.T, off bool) *querier {
	t.Helper()
	var s protocols.Settings
	if off {
		s.Options = func(v any) error {
			no := false
			v.(*Options).ChallengeCache = &no
			return nil
		}
	}
	pq, err := newQuerier(s)
	if err != nil {
		t.Fatal(err)
	}
	return pq.(*querier)
}
