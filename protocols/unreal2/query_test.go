package unreal2

import (
	"encoding/binary"
	"fmt"
	"net/netip"
	"slices"
	"sync/atomic"
	"testing"
	"time"

	"github.com/gameserver-exporter/gameserver_exporter/protocols"
	"github.com/gameserver-exporter/gameserver_exporter/protocols/prototest"
	"github.com/gameserver-exporter/gameserver_exporter/protocols/wire"
)

// ustr encodes an Unreal string: length byte counting the NUL, text, NUL.
func ustr(s string) []byte { return append(append([]byte{byte(len(s) + 1)}, s...), 0) }

func le32(v int32) []byte { return binary.LittleEndian.AppendUint32(nil, uint32(v)) }

func header(kind byte) []byte { return []byte{0x80, 0, 0, 0, kind} }

// infoReply builds a UT2004 server info reply.
func infoReply(name, mapName string, players, max int32) []byte {
	b := header(typeInfo)
	b = append(b, le32(1)...)
	b = append(b, 0) // empty IP
	b = append(b, le32(7777)...)
	b = append(b, le32(7778)...)
	b = append(b, ustr(name)...)
	b = append(b, ustr(mapName)...)
	b = append(b, ustr("xDeathMatch")...)
	b = append(b, le32(players)...)
	b = append(b, le32(max)...)
	b = append(b, le32(0)...)
	b = append(b, le32(0)...)
	return append(b, ustr("1")...)
}

// playerName is the name of player i of the fake servers.
func playerName(i int) string { return fmt.Sprintf("Player%02d", i) }

// playerReplies lists n players, per to a datagram, numbered from 1.
func playerReplies(n, per int) [][]byte {
	var out [][]byte
	for i := 0; i < n; i += per {
		b := header(typePlayers)
		for j := i; j < min(n, i+per); j++ {
			b = append(b, le32(int32(j+1))...)
			b = append(b, ustr(playerName(j))...)
			b = append(b, le32(int32(40+j))...)  // ping
			b = append(b, le32(int32(j*3-5))...) // score
			b = append(b, le32(1<<29)...)        // red team
		}
		out = append(out, b)
	}
	return out
}

// rulesReplies splits key/value pairs over datagrams, per pairs to one.
func rulesReplies(per int, kv ...string) [][]byte {
	var out [][]byte
	for i := 0; i < len(kv); i += 2 * per {
		b := header(typeRules)
		for j := i; j < min(len(kv), i+2*per); j++ {
			b = append(b, ustr(kv[j])...)
		}
		out = append(out, b)
	}
	return out
}

// fake is a scripted server: one list of reply datagrams per request type, and a
// count of the requests of each type. Type 03 (qstat) gets the rules and players.
type fake struct {
	info, rules, players [][]byte
	asked                [4]atomic.Int32
}

func (f *fake) handle(req []byte) [][]byte {
	if len(req) != 5 || req[0] < 0x77 || req[0] > 0x80 || req[1]|req[2]|req[3] != 0 || req[4] > 3 {
		return nil
	}
	f.asked[req[4]].Add(1)
	switch req[4] {
	case typeInfo:
		return f.info
	case typeRules:
		return f.rules
	case typePlayers:
		return f.players
	}
	return append(append([][]byte(nil), f.rules...), f.players...)
}

func (f *fake) start(t testing.TB) netip.AddrPort { return prototest.UDP(t, f.handle) }

var stockRules = []string{
	"ServerMode", "dedicated", "AdminName", "", "ServerVersion", "3369",
	"Mutator", "MutInstaGib", "Mutator", "MutQuadJump", "MaxSpectators", "2",
}

var all = protocols.Settings{Players: true, Rules: true}

func query(t testing.TB, addr netip.AddrPort, s protocols.Settings, d time.Duration) (*protocols.Result, *wire.Trace, error) {
	return prototest.QueryNew(t, Protocol, addr, s, d)
}

func TestQueryReplies(t *testing.T) {
	t.Parallel()
	stock := rulesReplies(6, stockRules...)
	lying := rulesReplies(3, stockRules...)
	lying[1] = append(lying[1], ustr("AdminEmail")...)
	lying[1] = append(lying[1], 0x40, 'x') // value length past the end
	cutPlayer := append(playerReplies(2, 2)[0], le32(9)...)
	ps := playerReplies(6, 2)
	half := [][]byte{infoReply("Half", "DM-Antalus", 4, 8)}
	for _, tc := range []struct {
		name  string
		f     *fake
		s     protocols.Settings
		d     time.Duration
		want  string
		asked [4]int32 // requests of each type
	}{
		{"full", &fake{
			info:    [][]byte{infoReply("Big Server", "DM-Deck17", 10, 16)},
			players: playerReplies(10, 4), // three datagrams
			rules:   rulesReplies(4, append([]string{"GamePassword", "True"}, stockRules...)...),
		}, all, 5 * time.Second, `"Big Server" "DM-Deck17" "xDeathMatch" "3369" 10/16 bots 0 pw 2 [10 players] rules 7 info 0 partial [] | info:ok,players:ok,rules:ok skipped 0 log 0`, [4]int32{1, 1, 1, 0}},
		// The info's count holds bots too (UT2004's GetNumPlayers: humans plus
		// bots, once a human is on), the list humans only (GetServerPlayers skips
		// bots): with the list, Players is its length and Bots the count less it;
		// without, Players is the count as sent and Bots unknown (as when empty:
		// the server counts nobody then). The players phase ends at the count or,
		// short of it, when the server is quiet: both without error.
		{"fewer than counted", &fake{info: [][]byte{infoReply("Some", "DM-Gael", 7, 16)}, players: playerReplies(3, 2)},
			protocols.Settings{Players: true}, 2 * time.Second, `"Some" "DM-Gael" "xDeathMatch" "" 3/16 bots 4 pw 0 [Player00 Player01 Player02] rules - info 0 partial [] | info:ok,players:ok skipped 0 log 1`, [4]int32{1, 0, 1, 0}},
		// 3 s: the quiet period that ends a list is a tenth of the time left.
		{"players silent", &fake{info: half, rules: stock}, all, 3 * time.Second, `"Half" "DM-Antalus" "xDeathMatch" "3369" 4/8 bots ? pw 1 [] rules 6 info 0 partial [players:timeout] | info:ok,players:timeout,rules:ok skipped 0 log 1`, [4]int32{1, 1, 1, 0}},
		{"rules silent", &fake{info: half, players: playerReplies(4, 4)}, all, 3 * time.Second, `"Half" "DM-Antalus" "xDeathMatch" "" 4/8 bots 0 pw 0 [Player00 Player01 Player02 Player03] rules - info 0 partial [rules:timeout] | info:ok,players:ok,rules:timeout skipped 0 log 0`, [4]int32{1, 1, 1, 0}},
		{"rules lying length", &fake{info: half, players: playerReplies(4, 4), rules: lying}, all, 3 * time.Second, `"Half" "DM-Antalus" "xDeathMatch" "3369" 4/8 bots 0 pw 0 [Player00 Player01 Player02 Player03] rules 6 info 0 partial [rules:truncated] | info:ok,players:ok,rules:truncated skipped 0 log 0`, [4]int32{1, 1, 1, 0}},
		{"player record cut", &fake{info: half, players: [][]byte{cutPlayer, playerReplies(4, 2)[1]}, rules: stock}, all, 3 * time.Second, `"Half" "DM-Antalus" "xDeathMatch" "3369" 4/8 bots ? pw 1 [Player00 Player01 Player02 Player03] rules 6 info 0 partial [players:truncated] | info:ok,players:truncated,rules:ok skipped 0 log 0`, [4]int32{1, 1, 1, 0}},
		// Datagrams of another type, junk and duplicates are skipped; each player counts once.
		{"strays and duplicates", &fake{
			info:    [][]byte{infoReply("Busy", "ONS-Torlan", 6, 32)},
			players: [][]byte{ps[0], header(typeRules), []byte("junk"), ps[0], infoReply("Late", "x", 1, 1), ps[1], ps[1], ps[2]},
		}, protocols.Settings{Players: true}, 2 * time.Second, `"Busy" "ONS-Torlan" "xDeathMatch" "" 6/32 bots 0 pw 0 [Player00 Player01 Player02 Player03 Player04 Player05] rules - info 0 partial [] | info:ok,players:ok skipped 5 log 0`, [4]int32{1, 0, 1, 0}},
		// A server that counts no players is not asked for them; one without
		// players or rules wanted gets the info request only.
		{"empty", &fake{info: [][]byte{infoReply("Empty", "DM-Curse4", 0, 10)}, rules: stock}, all, 2 * time.Second, `"Empty" "DM-Curse4" "xDeathMatch" "3369" 0/10 bots ? pw 1 [] rules 6 info 0 partial [] | info:ok,rules:ok skipped 0 log 1`, [4]int32{1, 1, 0, 0}},
		{"nothing asked", &fake{info: [][]byte{infoReply("Full", "DM-Rankin", 3, 10)}, players: playerReplies(3, 3), rules: stock},
			protocols.Settings{}, 2 * time.Second, `"Full" "DM-Rankin" "xDeathMatch" "" 3/10 bots ? pw 0 - rules - info 0 partial [] | info:ok skipped 0 log 0`, [4]int32{1, 0, 0, 0}},
		// A list longer than the count cannot be split.
		{"list longer than the count", &fake{info: [][]byte{infoReply("Bots", "DM-Rankin", 2, 16)}, players: playerReplies(4, 4)},
			protocols.Settings{Players: true}, 2 * time.Second, `"Bots" "DM-Rankin" "xDeathMatch" "" 4/16 bots ? pw 0 [Player00 Player01 Player02 Player03] rules - info 0 partial [] | info:ok,players:ok skipped 0 log 0`, [4]int32{1, 0, 1, 0}},
		{"info truncated", &fake{info: [][]byte{prototest.VecFile(t, "info_name_overrun")}}, all, 2 * time.Second, `error truncated | info:truncated skipped 0 log 0`, [4]int32{1, 0, 0, 0}},
		{"info cut counts", &fake{info: [][]byte{prototest.VecFile(t, "info_cut_counts")}}, all, 2 * time.Second, `error truncated | info:truncated skipped 0 log 0`, [4]int32{1, 0, 0, 0}},
		// Only datagrams that answer nothing: wire.Exchange names why the last was skipped.
		{"only strays", &fake{info: [][]byte{prototest.VecFile(t, "not_reply"), prototest.VecFile(t, "wrong_type")}}, all, 300 * time.Millisecond, `error malformed | info:malformed skipped 2 log 2`, [4]int32{}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			res, tr, err := query(t, tc.f.start(t), tc.s, tc.d)
			prototest.CheckProbe(t, res, tr, err, tc.want)
			for kind, n := range tc.asked {
				if got := tc.f.asked[kind].Load(); got != n && tc.asked != [4]int32{} {
					t.Errorf("%d requests of type %d, want %d", got, kind, n)
				}
			}
			if res != nil {
				prototest.CheckUTF8(t, res)
			}
			if tc.name == "fewer than counted" {
				prototest.CheckBots(t, res, 3, 4, false)
			}
			if tc.name != "full" {
				return
			}
			// The full list, in order, with each record's fields, and the rules
			// that set the password and version.
			for i, p := range res.PlayerList {
				if p.Name != playerName(i) || p.Ping != protocols.Known(int64(40+i)) || p.Score != protocols.Known(int64(i*3-5)) || p.Team != "red" {
					t.Errorf("player %d = %+v", i, p)
				}
			}
			if res.Rules[0] != (protocols.KV{Key: "GamePassword", Value: "True"}) {
				t.Errorf("rules %q", res.Rules)
			}
		})
	}
}

// The contract's retry case loses the info reply: the request is re-sent.
func TestQuerierContract(t *testing.T) {
	t.Parallel()
	f := &fake{info: [][]byte{infoReply("Contract", "DM-Morpheus3", 2, 8)}, players: playerReplies(2, 1)}
	prototest.QuerierContract(t, prototest.Contract{
		Protocol: Protocol, Name: "unreal2", DefaultPort: 7777, PortOffset: 1, Transport: "udp",
		Settings: protocols.Settings{Players: true},
		Answer:   f.handle,
		WantName: "Contract",
		Check: func(t testing.TB, res *protocols.Result, _ *wire.Trace) {
			if len(res.PlayerList) != 2 {
				t.Errorf("players %+v", res.PlayerList)
			}
		},
	})
}

// TestQstat queries the same fake servers with quakestat -ut2s -P and with the
// Querier and compares name, map, counts and the player list. quakestat adds the
// query port offset 1 to the port it is given (checked by hand: asked for port P it
// sends to P+1), so it gets the fake's port - 1. It asks with version byte 0x78 and
// type 03 (rules and players), which the fake answers like 01 and 02 together; with
// players asked and no rules it stops reading at the info's player count.
// Names carry no colour codes here: quakestat drops more after the 0x1B than the
// three colour bytes.
func TestQstat(t *testing.T) {
	prototest.NeedQstat(t)
	servers := map[string]*fake{
		"single":       {info: [][]byte{infoReply("Fake Server", "DM-Rankin", 2, 16)}, players: playerReplies(2, 2)},
		"multi":        {info: [][]byte{infoReply("Packed Server", "CTF-Face3", 14, 32)}, players: playerReplies(14, 5)},
		"killingfloor": {info: [][]byte{prototest.VecFile(t, "qstat_killingfloor")}, players: playerReplies(3, 3)},
		"ucs2":         {info: [][]byte{prototest.VecFile(t, "qstat_ucs2")}, players: playerReplies(3, 2)},
		"empty":        {info: [][]byte{infoReply("Nobody", "DM-Gael", 0, 8)}},
	}
	for name, f := range servers {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			f.rules = rulesReplies(6, stockRules...)
			addr := f.start(t)
			gamePort := netip.AddrPortFrom(addr.Addr(), addr.Port()-1)
			qs := prototest.QstatOne(t, "-P", "-ut2s", gamePort.String())
			res, _, err := query(t, addr, protocols.Settings{Players: true}, 5*time.Second)
			prototest.NoError(t, err)

			if res.Name != qs.Name || res.Map != qs.Map || res.Game != qs.Game ||
				res.Players != protocols.Known(int64(qs.NumPlayers)) || res.MaxPlayers != protocols.Known(int64(qs.MaxPlayers)) {
				t.Errorf("querier %q %q %q %v/%v, qstat %q %q %q %d/%d", res.Name, res.Map, res.Game, res.Players, res.MaxPlayers,
					qs.Name, qs.Map, qs.Game, qs.NumPlayers, qs.MaxPlayers)
			}
			// quakestat lists players last first: compare sorted lines.
			var ours, theirs []string
			for _, p := range res.PlayerList {
				ours = append(ours, fmt.Sprint(p.Name, " ", p.Score.Value, " ", p.Ping.Value, " ", p.Team))
			}
			for _, p := range qs.Players {
				theirs = append(theirs, fmt.Sprint(p.Name, " ", p.Score, " ", p.Ping, " ", p.Team()))
			}
			slices.Sort(ours)
			slices.Sort(theirs)
			if !slices.Equal(ours, theirs) {
				t.Errorf("players\n ours %q\nqstat %q", ours, theirs)
			}
		})
	}
}

// BenchmarkQuery is info and a 16-player list in two datagrams over loopback; the
// players phase ends at the count, so no quiet period is waited.
func BenchmarkQuery(b *testing.B) {
	f := &fake{info: [][]byte{infoReply("Bench", "DM-Rankin", 16, 32)}, players: playerReplies(16, 8)}
	prototest.QueryBench(b, Protocol, protocols.Settings{Players: true}, f.start(b))
}
