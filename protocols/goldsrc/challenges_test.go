package goldsrc

import (
	"cmp"
	"strings"
	"testing"
	"time"

	"github.com/gameserver-exporter/gameserver_exporter/protocols"
	"github.com/gameserver-exporter/gameserver_exporter/protocols/internal/steam"
	"github.com/gameserver-exporter/gameserver_exporter/protocols/internal/steam/steamtest"
	"github.com/gameserver-exporter/gameserver_exporter/protocols/prototest"
)

func TestChallengeCache(t *testing.T) {
	t.Parallel()
	a, b := []byte{0x4B, 0xA1, 0xD5, 0x22}, []byte{0x55, 0x66, 0x77, 0x88}
	type step = steamtest.CacheStep
	type row struct {
		steamtest.CacheCase
		seed    []byte // a challenge in the cache before the first probe
		timeout time.Duration
	}
	var rows []row
	for _, c := range steamtest.CommonCacheCases(func(ch bool) steamtest.CacheFake { return &fake{infoChallenge: ch, chal: a} }) {
		rows = append(rows, row{CacheCase: c})
	}
	rows = append(rows,
		row{CacheCase: steamtest.CacheCase{Name: "a server dropping a stale challenge gets A2S_INFO without it in the first stage",
			Fake: &fake{infoChallenge: true, dropWrong: true, chal: a},
			Steps: []step{{Reqs: 2, Phases: "challenge,info", Cached: true},
				// the stale one (silence), the plain one, the new challenge: no text query
				{Challenge: b, Reqs: 3, Phases: "challenge,info", Hit: true, Cached: true}, {Reqs: 1, Phases: "info", Hit: true, Cached: true}}},
			timeout: lateDeadline},
		row{CacheCase: steamtest.CacheCase{Name: "a plain A2S_INFO answered at once drops the cached challenge",
			Fake: &fake{dropWrong: true, chal: a}, Steps: []step{{Reqs: 2, Phases: "info", Hit: true}, {Reqs: 1, Phases: "info"}}},
			seed: b, timeout: lateDeadline})
	for _, tt := range rows {
		t.Run(tt.Name, func(t *testing.T) {
			t.Parallel()
			f := tt.Fake.(*fake)
			f.a2sInfo = one(readHex(t, "info_I_goldsrc.hex"))
			addr := f.start(t)
			q := newCachingQuerier(t, tt.Off)
			if tt.seed != nil {
				q.challenges.Put(addr, steam.WithChallenge(steam.InfoRequest, tt.seed), false)
			}
			steamtest.CacheRun{Querier: q, Cache: q.challenges, Off: tt.Off, Fake: f, Addr: addr, InfoOnly: true,
				Timeout: cmp.Or(tt.timeout, answerDeadline), Name: "CS 1.6 Server", Steps: tt.Steps}.Run(t)
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
	q := prototest.MustNew(t, Protocol, protocols.Settings{Players: true})
	for i, want := range []string{"challenge,info,players", "info,players"} {
		res, tr, err := prototest.QueryWithin(t, q, addr, answerDeadline)
		if err != nil || len(res.PhaseErrors) != 0 {
			t.Fatalf("probe %d: %v %v", i+1, err, res)
		}
		eq(t, "players", len(res.PlayerList), 3)
		eq(t, "phases", phases(tr), want)
	}
	eq(t, "requests", strings.Join(f.requests(), ","), "A2S_INFO,A2S_INFO,A2S_PLAYER,A2S_PLAYER,A2S_INFO,A2S_PLAYER,A2S_PLAYER")
}

func TestChallengeCacheConcurrent(t *testing.T) {
	t.Parallel()
	f := &fake{a2sInfo: one(readHex(t, "info_I_goldsrc.hex")), infoChallenge: true, dropWrong: true}
	q := newCachingQuerier(t, false)
	steamtest.CacheConcurrent(t, q, q.challenges, f.start(t), challenge)
}

// newCachingQuerier returns a querier with the default options, or with
// challenge_cache: false when off.
func newCachingQuerier(t *testing.T, off bool) *querier {
	t.Helper()
	var s protocols.Settings
	if off {
		s.Options = prototest.OptionsOf(Options{ChallengeCache: new(bool)})
	}
	return prototest.MustNew(t, Protocol, s).(*querier)
}
