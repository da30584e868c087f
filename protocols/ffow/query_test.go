package ffow

import (
	"bytes"
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
		reply := f.players
		if req[4] == 0x56 {
			reply = f.rules
		}
		switch {
		case reply == nil: // the list goes unanswered
			return nil
		case f.split && req[4] == 0x55:
			return splitReply(reply)
		}
		return [][]byte{reply}
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

func TestQueryReplies(t *testing.T) {
	all := protocols.Settings{Players: true, Rules: true}
	for _, tc := range []struct {
		name  string
		edit  func(f *fake)
		s     protocols.Settings
		d     time.Duration
		want  string
		asked int32 // requests, when pinned
	}{
		{"info only", func(*fake) {}, protocols.Settings{}, 2 * time.Second, `"FFOW Test Server" "CQ_Harbor" "ffow" "1.0.3" 5/32 bots ? pw 2 - rules - info 11 partial [] | info:ok`, 1},
		{"players and rules", func(*fake) {}, all, 2 * time.Second, `"FFOW Test Server" "CQ_Harbor" "ffow" "1.0.3" 5/32 bots ? pw 2 [Sgt. Kaos Pró] rules 3 info 11 partial [] | info:ok,challenge:ok,players:ok,rules:ok`, 0},
		{"players split", func(f *fake) { f.split = true }, all, 2 * time.Second, `"FFOW Test Server" "CQ_Harbor" "ffow" "1.0.3" 5/32 bots ? pw 2 [Sgt. Kaos Pró] rules 3 info 11 partial [] | info:ok,challenge:ok,players:ok,rules:ok`, 0},
		{"old version asks no lists", func(f *fake) { f.info = vec(t, "info_v1") }, all, 2 * time.Second, `"Café" "SK_Village" "ffow" "1.0.0" 0/16 bots ? pw 1 - rules - info 11 partial [] | info:ok`, 1},
		// No challenge: info stands, players and rules fail with the timeout.
		{"no challenge", func(f *fake) { f.noChallenge = true }, all, 400 * time.Millisecond, `"FFOW Test Server" "CQ_Harbor" "ffow" "1.0.3" 5/32 bots ? pw 2 - rules - info 11 partial [players:timeout rules:timeout] | info:ok,challenge:timeout`, 0},
		// Silent lists: info stands, players and rules each fail their phase.
		{"silent lists", func(f *fake) { f.players, f.rules = nil, nil }, all, 400 * time.Millisecond, `"FFOW Test Server" "CQ_Harbor" "ffow" "1.0.3" 5/32 bots ? pw 2 - rules - info 11 partial [players:timeout rules:timeout] | info:ok,challenge:ok,players:timeout,rules:timeout`, 0},
		// Broken lists: a phase error each, with the decoder's reason.
		{"broken lists", func(f *fake) { f.players, f.rules = vec(t, "err_players_cut"), vec(t, "err_rules_too_many") }, all, 2 * time.Second, `"FFOW Test Server" "CQ_Harbor" "ffow" "1.0.3" 5/32 bots ? pw 2 - rules - info 11 partial [players:truncated rules:too_large] | info:ok,challenge:ok,players:truncated,rules:too_large`, 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f := newFake(t)
			tc.edit(f)
			res, tr, err := prototest.QueryNew(t, Protocol, prototest.UDP(t, f.handle), tc.s, tc.d)
			prototest.CheckProbe(t, res, tr, err, tc.want)
			if tc.name == "players and rules" {
				prototest.CheckBots(t, res, 5, prototest.Unknown, true)
			}
			if tc.asked != 0 && f.asked.Load() != tc.asked {
				t.Errorf("%d requests, want %d", f.asked.Load(), tc.asked)
			}
		})
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
