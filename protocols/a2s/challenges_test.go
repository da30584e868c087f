package a2s

import (
	"bytes"
	"sync"
	"testing"
	"time"

	"github.com/gameserver-exporter/gameserver_exporter/protocols"
	"github.com/gameserver-exporter/gameserver_exporter/protocols/internal/steam"
	"github.com/gameserver-exporter/gameserver_exporter/protocols/prototest"
)

// cacheStep is one probe of a sequence against the same querier and fake server.
type cacheStep struct {
	challenge [4]byte       // the server's challenge from this probe on (zero: unchanged)
	advance   time.Duration // the cache's clock moves on before the probe
	reqs      int           // datagrams the probe sends
	phases    []string
	hit       bool // the probe starts with a cached challenge (trace log line)
	cached    bool // afterwards the cache holds the server's current challenge (else nothing)
}

func TestChallengeCache(t *testing.T) {
	t.Parallel()
	a, b := [4]byte{0x4B, 0xA1, 0xD5, 0x22}, [4]byte{0x11, 0x22, 0x33, 0x44}
	challenge, info := []string{"challenge", "info"}, []string{"info"}
	for _, tt := range []struct {
		name    string
		fake    *fake
		off     bool // challenge_cache: false
		players bool
		timeout time.Duration
		steps   []cacheStep
	}{
		{name: "first probe pays the challenge, the next ones do not",
			fake: &fake{infoChallenge: true, challenge: a},
			steps: []cacheStep{
				{reqs: 2, phases: challenge, cached: true},
				{reqs: 1, phases: info, hit: true, cached: true},
				{reqs: 1, phases: info, hit: true, cached: true},
			}},
		{name: "a new challenge is followed and kept",
			fake: &fake{infoChallenge: true, challenge: a},
			steps: []cacheStep{
				{reqs: 2, phases: challenge, cached: true},
				{challenge: b, reqs: 2, phases: challenge, hit: true, cached: true},
				{reqs: 1, phases: info, hit: true, cached: true},
			}},
		{name: "a server dropping a stale challenge is asked the old way",
			fake:    &fake{infoChallenge: true, dropWrong: true, challenge: a},
			timeout: 600 * time.Millisecond,
			steps: []cacheStep{
				{reqs: 2, phases: challenge, cached: true},
				// the stale A2S_INFO, then the plain one and 0x57, then the new challenge
				// (the challenge phase: it came in the first answer of the fallback)
				{challenge: b, reqs: 4, phases: challenge, hit: true, cached: true},
				{reqs: 1, phases: info, hit: true, cached: true},
			}},
		{name: "a server that needs no challenge leaves nothing",
			fake: &fake{},
			steps: []cacheStep{
				{reqs: 1, phases: info},
				{reqs: 1, phases: info},
			}},
		{name: "off: every probe pays the challenge",
			fake: &fake{infoChallenge: true, challenge: a},
			off:  true,
			steps: []cacheStep{
				{reqs: 2, phases: challenge},
				{reqs: 2, phases: challenge},
				{reqs: 2, phases: challenge},
			}},
		{name: "an expired challenge is not used",
			fake: &fake{infoChallenge: true, challenge: a},
			steps: []cacheStep{
				{reqs: 2, phases: challenge, cached: true},
				{advance: steam.ChallengeTTL - time.Second, reqs: 1, phases: info, hit: true, cached: true},
				{advance: time.Second, reqs: 2, phases: challenge, cached: true},
				{reqs: 1, phases: info, hit: true, cached: true},
			}},
		{name: "a legacy challenge serves players too",
			fake:    &fake{legacy: true, challenge: a},
			players: true,
			timeout: 600 * time.Millisecond,
			steps: []cacheStep{
				// silence, then the plain A2S_INFO and 0x57 (1 answer), A2S_INFO with it, players with it
				{reqs: 5, phases: []string{"challenge", "info", "players"}, cached: true},
				{reqs: 2, phases: []string{"info", "players"}, hit: true, cached: true},
			}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			f := tt.fake
			f.info = one(readHex(t, "info_no_edf.hex"))
			f.players = one(readHex(t, "player_basic.hex"))
			addr := f.start(t)
			s := protocols.Settings{Players: tt.players}
			if tt.off {
				s.Options = func(v any) error {
					off := false
					v.(*Options).ChallengeCache = &off
					return nil
				}
			}
			pq, err := newQuerier(s)
			if err != nil {
				t.Fatal(err)
			}
			q := pq.(*querier)
			clk := prototest.NewClock(time.Unix(1e9, 0))
			if q.Challenges != nil {
				q.Challenges.Now = clk.Now
			} else if !tt.off {
				t.Fatal("no challenge cache by default")
			}
			timeout := tt.timeout
			if timeout == 0 {
				timeout = 2 * time.Second
			}
			for i, st := range tt.steps {
				if st.challenge != [4]byte{} {
					f.setChallenge(st.challenge)
				}
				clk.Advance(st.advance)
				before := len(f.requests())
				res, tr, err := prototest.QueryWithin(t, q, addr, timeout)
				if err != nil || len(res.PhaseErrors) != 0 {
					t.Fatalf("probe %d: %v %v", i+1, err, res)
				}
				eq(t, "name", res.Name, "Test Server")
				reqs := f.requests()[before:]
				if len(reqs) != st.reqs {
					t.Errorf("probe %d: %d requests, want %d: % x", i+1, len(reqs), st.reqs, reqs)
				}
				eq(t, "phases", phases(tr), st.phases)
				eq(t, "hit logged", prototest.Logged(tr, "challenge_cache"), st.hit)
				if st.hit && (!bytes.HasPrefix(reqs[0], steam.InfoRequest) || len(reqs[0]) != len(steam.InfoRequest)+4) {
					t.Errorf("probe %d: first request % x carries no challenge", i+1, reqs[0])
				}
				got, ok := q.Challenges.Get(addr)
				if ok != st.cached || ok && got.Challenge() != f.challenge {
					t.Errorf("probe %d: cache holds % x %v, want % x %v", i+1, got.Req, ok, f.challenge, st.cached)
				}
			}
		})
	}
}

// Concurrent probes of one target share the cache (run with -race): all succeed,
// and the cache ends with the server's challenge.
func TestChallengeCacheConcurrent(t *testing.T) {
	t.Parallel()
	f := &fake{info: one(readHex(t, "info_no_edf.hex")), infoChallenge: true, dropWrong: true, challenge: [4]byte{5, 6, 7, 8}}
	addr := f.start(t)
	pq, _ := newQuerier(protocols.Settings{})
	q := pq.(*querier)
	for round := range 2 {
		var wg sync.WaitGroup
		for range 8 {
			wg.Go(func() {
				if _, _, err := prototest.QueryWithin(t, q, addr, 2*time.Second); err != nil {
					t.Errorf("round %d: %v", round, err)
				}
			})
		}
		wg.Wait()
		if e, ok := q.Challenges.Get(addr); !ok || e.Challenge() != [4]byte{5, 6, 7, 8} {
			t.Fatalf("round %d: cache %v %v", round, e, ok)
		}
	}
}
