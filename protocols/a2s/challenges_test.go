package a2s

import (
	"cmp"
	"testing"
	"time"

	"github.com/gameserver-exporter/gameserver_exporter/protocols"
	"github.com/gameserver-exporter/gameserver_exporter/protocols/internal/steam"
	"github.com/gameserver-exporter/gameserver_exporter/protocols/internal/steam/steamtest"
	"github.com/gameserver-exporter/gameserver_exporter/protocols/prototest"
)

type step = steamtest.CacheStep

func TestChallengeCache(t *testing.T) {
	t.Parallel()
	a, b := [4]byte{0x4B, 0xA1, 0xD5, 0x22}, []byte{0x11, 0x22, 0x33, 0x44}
	const challenge, info = "challenge,info", "info"
	for _, tt := range []struct {
		name    string
		fake    *fake
		off     bool // challenge_cache: false
		players bool
		timeout time.Duration
		steps   []step
	}{
		{name: "first probe pays the challenge, the next ones do not",
			fake: &fake{infoChallenge: true, challenge: a},
			steps: []step{{Reqs: 2, Phases: challenge, Cached: true},
				{Reqs: 1, Phases: info, Hit: true, Cached: true}, {Reqs: 1, Phases: info, Hit: true, Cached: true}}},
		{name: "a new challenge is followed and kept",
			fake: &fake{infoChallenge: true, challenge: a},
			steps: []step{{Reqs: 2, Phases: challenge, Cached: true},
				{Challenge: b, Reqs: 2, Phases: challenge, Hit: true, Cached: true}, {Reqs: 1, Phases: info, Hit: true, Cached: true}}},
		{name: "a server dropping a stale challenge is asked the old way",
			fake: &fake{infoChallenge: true, dropWrong: true, challenge: a}, timeout: 600 * time.Millisecond,
			steps: []step{{Reqs: 2, Phases: challenge, Cached: true},
				// the stale A2S_INFO, then the plain one and 0x57, then the new challenge
				// (the challenge phase: it came in the first answer of the fallback)
				{Challenge: b, Reqs: 4, Phases: challenge, Hit: true, Cached: true}, {Reqs: 1, Phases: info, Hit: true, Cached: true}}},
		{name: "a server that needs no challenge leaves nothing",
			fake: &fake{}, steps: []step{{Reqs: 1, Phases: info}, {Reqs: 1, Phases: info}}},
		{name: "off: every probe pays the challenge",
			fake: &fake{infoChallenge: true, challenge: a}, off: true,
			steps: []step{{Reqs: 2, Phases: challenge}, {Reqs: 2, Phases: challenge}, {Reqs: 2, Phases: challenge}}},
		{name: "an expired challenge is not used",
			fake: &fake{infoChallenge: true, challenge: a},
			steps: []step{{Reqs: 2, Phases: challenge, Cached: true},
				{Advance: steam.ChallengeTTL - time.Second, Reqs: 1, Phases: info, Hit: true, Cached: true},
				{Advance: time.Second, Reqs: 2, Phases: challenge, Cached: true}, {Reqs: 1, Phases: info, Hit: true, Cached: true}}},
		{name: "a legacy challenge serves players too",
			fake: &fake{legacy: true, challenge: a}, players: true, timeout: 600 * time.Millisecond,
			steps: []step{
				// silence, then the plain A2S_INFO and 0x57 (1 answer), A2S_INFO with it, players with it
				{Reqs: 5, Phases: "challenge,info,players", Cached: true},
				{Reqs: 2, Phases: "info,players", Hit: true, Cached: true}}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			f := tt.fake
			f.info, f.players = one(readHex(t, "info_no_edf.hex")), one(readHex(t, "player_basic.hex"))
			s := protocols.Settings{Players: tt.players}
			if tt.off {
				s.Options = prototest.OptionsOf(Options{ChallengeCache: new(bool)})
			}
			q := prototest.MustNew(t, Protocol, s).(*querier)
			steamtest.CacheRun{Querier: q, Cache: q.challenges, Off: tt.off, Fake: f, Addr: f.start(t),
				Timeout: cmp.Or(tt.timeout, 2*time.Second), Name: "Test Server", Steps: tt.steps}.Run(t)
		})
	}
}

func TestChallengeCacheConcurrent(t *testing.T) {
	t.Parallel()
	f := &fake{info: one(readHex(t, "info_no_edf.hex")), infoChallenge: true, dropWrong: true, challenge: [4]byte{5, 6, 7, 8}}
	q := prototest.MustNew(t, Protocol, protocols.Settings{}).(*querier)
	steamtest.CacheConcurrent(t, q, q.challenges, f.start(t), []byte{5, 6, 7, 8})
}
