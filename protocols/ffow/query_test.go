package ffow

import (
	"bytes"
	"errors"
	"sync/atomic"
	"testing"
	"time"

	"github.com/gameserver-exporter/gameserver_exporter/protocols"
	"github.com/gameserver-exporter/gameserver_exporter/protocols/prototest"
	"github.com/gameserver-exporter/gameserver_exporter/protocols/wire"
)

// fake is an LSQ server: the info for "FFOW\x46LSQ", a challenge for 0x57, and the
// players and rules only for requests carrying that challenge (a wrong one gets a
// fresh challenge, as A2S servers answer). Fields change what it sends.
type fake struct {
	info, players, rules []byte
	noChallenge          bool // the 0x57 request goes unanswered
	split                bool // the players reply comes in two Source-layout fragments, second first
	asked                atomic.Int32
}

var testChallenge = []byte{0x0a, 0x0b, 0x0c, 0x0d}

func (f *fake) handle(req []byte) [][]byte {
	f.asked.Add(1)
	switch {
	case bytes.Equal(req, infoRequest):
		return [][]byte{f.info}
	case bytes.Equal(req, getChallengeRequest):
		if f.noChallenge {
			return nil
		}
		return [][]byte{append([]byte{0xff, 0xff, 0xff, 0xff, 0x41}, testChallenge...)}
	case len(req) == 9 && (req[4] == 0x55 || req[4] == 0x56):
		if !bytes.Equal(req[5:], testChallenge) {
			return [][]byte{append([]byte{0xff, 0xff, 0xff, 0xff, 0x41}, testChallenge...)}
		}
		if req[4] == 0x56 {
			return [][]byte{f.rules}
		}
		if f.split {
			return splitReply(f.players)
		}
		return [][]byte{f.players}
	}
	return nil
}

// splitReply cuts msg in two Source-layout fragments (id, total, number, size) and
// sends the second first.
func splitReply(msg []byte) [][]byte {
	half := len(msg) / 2
	frag := func(n int, part []byte) []byte {
		h := []byte{0xfe, 0xff, 0xff, 0xff, 0, 0, 0, 7, 2, byte(n), 0x04, 0xe0}
		return append(h, part...)
	}
	return [][]byte{frag(1, msg[half:]), frag(0, msg[:half])}
}

func newFake(t testing.TB) *fake {
	return &fake{info: vec(t, "info"), players: vec(t, "players"), rules: vec(t, "rules")}
}

func TestQueryInfoOnly(t *testing.T) {
	f := newFake(t)
	res, tr := prototest.QueryOK(t, Protocol, prototest.UDP(t, f.handle), protocols.Settings{}, 2*time.Second)
	if res.Name != "FFOW Test Server" || res.Players != protocols.Known(5) || res.PlayerList != nil || res.Rules != nil {
		t.Errorf("%+v", res)
	}
	if got := prototest.PhaseReasons(tr); got != "info:ok" || f.asked.Load() != 1 {
		t.Errorf("phases %v, %d requests", got, f.asked.Load())
	}
}

func TestQueryPlayersAndRules(t *testing.T) {
	for _, split := range []bool{false, true} {
		f := newFake(t)
		f.split = split
		res, tr := prototest.QueryOK(t, Protocol, prototest.UDP(t, f.handle), protocols.Settings{Players: true, Rules: true}, 2*time.Second)
		if len(res.PlayerList) != 2 || res.PlayerList[1].Name != "Pró" || len(res.Rules) != 3 || len(res.PhaseErrors) != 0 {
			t.Errorf("split %v: %+v", split, res)
		}
		if got := prototest.PhaseReasons(tr); got != "info:ok,challenge:ok,players:ok,rules:ok" {
			t.Errorf("split %v: phases %s", split, got)
		}
	}
}

func TestQueryOldVersionAsksNoLists(t *testing.T) {
	f := newFake(t)
	f.info = vec(t, "info_v1")
	res, tr := prototest.QueryOK(t, Protocol, prototest.UDP(t, f.handle), protocols.Settings{Players: true, Rules: true}, 2*time.Second)
	if res.Name != "Café" || res.PlayerList != nil || len(res.PhaseErrors) != 0 || f.asked.Load() != 1 || len(tr.Phases) != 1 {
		t.Errorf("%+v, %d requests, phases %s", res, f.asked.Load(), prototest.PhaseReasons(tr))
	}
}

func TestQueryPhaseFailures(t *testing.T) {
	// No challenge: info stands, players and rules fail with the timeout.
	f := newFake(t)
	f.noChallenge = true
	res, _, err := prototest.QueryNew(t, Protocol, prototest.UDP(t, f.handle), protocols.Settings{Players: true, Rules: true}, 400*time.Millisecond)
	if err != nil || res.Name == "" || len(res.PhaseErrors) != 2 || !errors.Is(res.PhaseErrors[0].Err, wire.ErrTimeout) || res.PhaseErrors[1].Phase != "rules" {
		t.Errorf("no challenge: %v %+v", err, res)
	}
	// Broken lists: a phase error each, with the decoder's reason.
	f = newFake(t)
	f.players, f.rules = vec(t, "err_players_cut"), vec(t, "err_rules_too_many")
	res, _, err = prototest.QueryNew(t, Protocol, prototest.UDP(t, f.handle), protocols.Settings{Players: true, Rules: true}, 2*time.Second)
	if err != nil || len(res.PhaseErrors) != 2 || wire.Reason(res.PhaseErrors[0].Err) != "truncated" || wire.Reason(res.PhaseErrors[1].Err) != "too_large" {
		t.Errorf("broken lists: %v %+v", err, res)
	}
}

func TestQueryInfoFailures(t *testing.T) {
	always := func(b ...[]byte) prototest.Handler { return func([]byte) [][]byte { return b } }
	prototest.ReplyFailures(t, Protocol, infoRequest, protocols.Settings{},
		prototest.ReplyFailure{Name: "cut", Handler: always(vec(t, "err_info_cut")), Want: wire.ErrTruncated},
		prototest.ReplyFailure{Name: "short", Handler: always([]byte{0xff, 0xff, 0xff, 0xff, 0x49}), Want: wire.ErrTruncated},
		// Strays (another type, not A2S framing) are skipped: the deadline ends the wait.
		prototest.ReplyFailure{Name: "strays", Handler: always(vec(t, "challenge"), []byte("garbage")), D: 300 * time.Millisecond, Want: wire.ErrTimeout},
	)
}

func TestQuerierContract(t *testing.T) {
	f := newFake(t)
	prototest.QuerierContract(t, prototest.Contract{
		Protocol: Protocol, Name: "ffow", DefaultPort: 5476, PortOffset: 2, Transport: "udp",
		Settings: protocols.Settings{Players: true, Rules: true},
		Answer:   f.handle,
		Check: func(t testing.TB, res *protocols.Result, _ *wire.Trace) {
			if res.Name != "FFOW Test Server" || len(res.PlayerList) != 2 || len(res.Rules) != 3 {
				t.Errorf("%+v", res)
			}
		},
	})
}
