package a2s

import (
	"cmp"
	"testing"
	"time"

	"github.com/gameserver-exporter/gameserver_exporter/protocols"
	"github.com/gameserver-exporter/gameserver_exporter/protocols/internal/steam/steamtest"
	"github.com/gameserver-exporter/gameserver_exporter/protocols/prototest"
)

func TestChallengeCache(t *testing.T) {
	t.Parallel()
	a, b := [4]byte{0x4B, 0xA1, 0xD5, 0x22}, []byte{0x11, 0x22, 0x33, 0x44}
	type step = steamtest.CacheStep
	type row struct {
		steamtest.CacheCase
		players bool
		timeout time.Duration
	}
	var rows []row
	for _, c := range steamtest.CommonCacheCases(func(ch bool) steamtest.CacheFake { return &fake{infoChallenge: ch, challenge: a} }) {
		rows = append(rows, row{CacheCase: c})
	}
	rows = append(rows,
		row{CacheCase: steamtest.CacheCase{Name: "a server dropping a stale challenge is asked the old way",
			Fake: &fake{infoChallenge: true, dropWrong: true, challenge: a},
			Steps: []step{{Reqs: 2, Phases: "challenge,info", Cached: true},
				// the stale A2S_INFO, then the plain one and 0x57, then the new challenge
				// (the challenge phase: it came in the first answer of the fallback)
				{Challenge: b, Reqs: 4, Phases: "challenge,info", Hit: true, Cached: true}, {Reqs: 1, Phases: "info", Hit: true, Cached: true}}},
			timeout: 600 * time.Millisecond},
		row{CacheCase: steamtest.CacheCase{Name: "a legacy challenge serves players too", Fake: &fake{legacy: true, challenge: a},
			Steps: []step{
				// silence, then the plain A2S_INFO and 0x57 (1 answer), A2S_INFO with it, players with it
				{Reqs: 5, Phases: "challenge,info,players", Cached: true},
				{Reqs: 2, Phases: "info,players", Hit: true, Cached: true}}},
			players: true, timeout: 600 * time.Millisecond})
	for _, tt := range rows {
		t.Run(tt.Name, func(t *testing.T) {
			t.Parallel()
			f := tt.Fake.(*fake)
			f.info, f.players = one(readHex(t, "info_no_edf.hex")), one(readHex(t, "player_basic.hex"))
			s := protocols.Settings{Players: tt.players}
			if tt.Off {
				s.Options = prototest.OptionsOf(Options{ChallengeCache: new(bool)})
			}
			q := prototest.MustNew(t, Protocol, s).(*querier)
			steamtest.CacheRun{Querier: q, Cache: q.challenges, Off: tt.Off, Fake: f, Addr: f.start(t),
				Timeout: cmp.Or(tt.timeout, 2*time.Second), Name: "Test Server", Steps: tt.Steps}.Run(t)
		})
	}
}

func TestChallengeCacheConcurrent(t *testing.T) {
	t.Parallel()
	f := &fake{info: one(readHex(t, "info_no_edf.hex")), infoChallenge: true, dropWrong: true, challenge: [4]byte{5, 6, 7, 8}}
	q := prototest.MustNew(t, Protocol, protocols.Settings{}).(*querier)
	steamtest.CacheConcurrent(t, q, q.challenges, f.start(t), []byte{5, 6, 7, 8})
}
