package steamtest

import (
	"cmp"
	"testing"
	"time"

	"github.com/gameserver-exporter/gameserver_exporter/protocols"
	"github.com/gameserver-exporter/gameserver_exporter/protocols/internal/steam"
	"github.com/gameserver-exporter/gameserver_exporter/protocols/prototest"
)

// CacheSuite runs a caching querier through CommonCacheCases and its own
// cases (whose Fake is a *Server), each against a new querier of Protocol.
type CacheSuite struct {
	Protocol  protocols.Protocol
	Cache     func(protocols.Querier) *steam.ChallengeCache // the querier's
	Challenge []byte                                        // the common cases' server hands it out
	// Every server answers A2S_INFO with Info (named Name), A2S_PLAYER with Players.
	Info, Players [][]byte
	Name          string
	Timeout       time.Duration
	InfoOnly      bool // CacheRun.InfoOnly
	Cases         []CacheCase
}

// Run runs the cases in parallel subtests.
func (c CacheSuite) Run(t *testing.T) {
	t.Helper()
	common := CommonCacheCases(func(ch bool) CacheFake { return &Server{InfoChallenge: ch, Challenge: c.Challenge} })
	for _, tc := range append(common, c.Cases...) {
		t.Run(tc.Name, func(t *testing.T) {
			t.Parallel()
			f := tc.Fake.(*Server)
			f.Info, f.Players = c.Info, c.Players
			s := protocols.Settings{Players: tc.Players}
			if tc.Off {
				s.Options = prototest.OptionsYAML("challenge_cache: false")
			}
			q := prototest.MustNew(t, c.Protocol, s)
			addr, cache := f.Start(t), c.Cache(q)
			if tc.Seed != nil {
				cache.Put(addr, steam.WithChallenge(steam.InfoRequest, tc.Seed), false)
			}
			CacheRun{Querier: q, Cache: cache, Off: tc.Off, Fake: f, Addr: addr, InfoOnly: c.InfoOnly,
				Timeout: cmp.Or(tc.Timeout, c.Timeout), Name: c.Name, Steps: tc.Steps}.Run(t)
		})
	}
}
