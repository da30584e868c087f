package gamespy1

import (
	"fmt"
	"testing"
	"time"

	"github.com/gameserver-exporter/gameserver_exporter/protocols"
	gt "github.com/gameserver-exporter/gameserver_exporter/protocols/internal/gamespy/gamespytest"
	"github.com/gameserver-exporter/gameserver_exporter/protocols/prototest"
	"github.com/gameserver-exporter/gameserver_exporter/protocols/wire"
)

// serve answers `\status\` with the given datagrams in order.
func serve(t testing.TB, parts ...[]byte) prototest.Handler {
	return func(req []byte) [][]byte {
		if string(req) != `\status\` {
			t.Errorf("request %q", req)
			return nil
		}
		return parts
	}
}

// separateServer answers each section with its own queryid and sends a late copy of
// the info reply before the players reply.
func separateServer(t *testing.T, answerPlayers bool) prototest.Handler {
	info := []byte(`\gamename\ut\hostname\Sep\mapname\DM-A\numplayers\2\maxplayers\8\queryid\11.1\final\`)
	return func(req []byte) [][]byte {
		switch string(req) {
		case `\basic\\info\`:
			return [][]byte{info}
		case `\players\`:
			if !answerPlayers {
				return nil
			}
			return [][]byte{info, []byte(`\player_1\B\frags_1\2\queryid\12.2\final\`), []byte(`\player_0\A\frags_0\1\queryid\12.1`)}
		case `\rules\`:
			return [][]byte{[]byte(`\timelimit\15\password\True\queryid\13.1\final\`)}
		}
		t.Errorf("request %q", req)
		return nil
	}
}

var (
	all     = protocols.Settings{Players: true, Rules: true}
	players = protocols.Settings{Players: true}
)

func TestQueryReplies(t *testing.T) {
	t.Parallel()
	ut, lossy := readParts(t, "ut_shuffled"), readParts(t, "missing_middle") // ut arrives 3, 1, 2
	var stream, dups [][]byte
	for i := 1; i <= 40; i++ {
		stream = append(stream, fmt.Appendf(nil, `\k%d\v\queryid\9.%d`, i, i))
	}
	for range 100 {
		dups = append(dups, []byte(`\hostname\x\queryid\9.1`))
	}
	for _, tc := range []struct {
		name string
		s    protocols.Settings
		o    Options
		d    time.Duration
		h    prototest.Handler
		want string
	}{
		// Out of order, with a duplicate, a stray of another reply and a non-GameSpy datagram.
		{"multi packet", all, Options{}, gt.Long, serve(t, ut[0], []byte(`\hostname\stale\queryid\76.1`), ut[1], ut[0], []byte("junk"), ut[2]),
			`"Test «Server»" "DM-Deck16][" "ut" "451" 3/16 bots ? pw 1 [Alpha Beta Zoé] rules 10 info 10 partial [] | info:ok skipped 3 log 0`},
		{"nothing asked", protocols.Settings{}, Options{Request: requestStatus}, gt.Long, serve(t, readParts(t, "bf_final_first")...),
			`"BF Test" "berlin" "bfield1942" "v1.61" 2/32 bots ? pw 2 - rules - info 9 partial [] | info:ok skipped 0 log 0`},
		{"missing packet", all, Options{}, gt.Long, serve(t, lossy...),
			`"Lossy" "CTF-Face" "" "" 2/10 bots ? pw 0 [First Third] rules 4 info 4 partial [players:truncated rules:truncated] | info:ok skipped 0 log 1`},
		// Without the info packet there is nothing to report.
		{"missing info", players, Options{}, gt.Long, serve(t, lossy[1]), `error truncated | info:truncated skipped 0 log 0`},
		// A reply without \final\ is complete when every packet came; the probe logs it.
		{"no final", players, Options{}, gt.Long, serve(t, readParts(t, "no_final")...),
			`"NoFinal" "" "" "" 1/2 bots ? pw 0 [Only] rules - info 3 partial [] | info:ok skipped 0 log 1`},
		{"endless stream", protocols.Settings{}, Options{}, gt.Long, serve(t, stream...), `error too_large | info:too_large skipped 0 log 0`},
		{"endless duplicates", protocols.Settings{}, Options{}, gt.Long, serve(t, dups...), `error too_large | info:too_large skipped 63 log 0`},
		{"separate", all, Options{Request: requestSeparate}, gt.Long, separateServer(t, true),
			`"Sep" "DM-A" "ut" "" 2/8 bots ? pw 0 [A B] rules 2 info 5 partial [] | info:ok,players:ok,rules:ok skipped 1 log 0`},
		{"separate players lost", players, Options{Request: requestSeparate}, time.Second, separateServer(t, false),
			`"Sep" "DM-A" "ut" "" 2/8 bots ? pw 0 - rules - info 5 partial [players:timeout] | info:ok,players:timeout skipped 0 log 0`},
		{"xserverquery", protocols.Settings{}, Options{Request: requestXServerQuery}, gt.Long, func(req []byte) [][]byte {
			if string(req) != `\status\xserverquery` {
				return nil
			}
			return [][]byte{[]byte(`\hostname\X\final\`)}
		}, `"X" "" "" "" ?/? bots ? pw 0 - rules - info 1 partial [] | info:ok skipped 0 log 0`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			tc.s.Options = prototest.OptionsOf(tc.o)
			res, tr, err := prototest.QueryNew(t, Protocol, prototest.UDP(t, tc.h), tc.s, tc.d)
			prototest.CheckProbe(t, res, tr, err, tc.want)
			if tc.name == "separate" && res.Rules[0] != (protocols.KV{Key: "timelimit", Value: "15"}) {
				t.Errorf("rules %v", res.Rules)
			}
		})
	}
}

func TestQueryFailures(t *testing.T) {
	t.Parallel()
	gt.Failures(t, Protocol, protocols.Settings{Retries: 1}, []gt.Failure{
		{Name: "garbage", D: gt.Short, H: func([]byte) [][]byte { return [][]byte{[]byte("\xff\xff\xff\xffgarbage")} }, Want: wire.ErrMalformed},
		{Name: "lying number", D: gt.Long, H: func([]byte) [][]byte { return [][]byte{[]byte(`\hostname\x\queryid\1.1000`)} }, Want: wire.ErrTooLarge},
		{Name: "empty", D: gt.Short, H: func([]byte) [][]byte { return [][]byte{{}} }, Want: wire.ErrMalformed},
	})
}

// Silence and a closed port are failures too: the contract checks them.
func TestQuerierContract(t *testing.T) {
	t.Parallel()
	prototest.QuerierContract(t, prototest.Contract{
		Protocol: Protocol, Name: "gamespy1", DefaultPort: 7778, Transport: "udp",
		Answer:   serve(t, []byte(`\hostname\Second\numplayers\1\maxplayers\2\final\`)),
		WantName: "Second", RetryDeadline: 900 * time.Millisecond,
	})
}

func TestOptionsErrors(t *testing.T) {
	prototest.OptionsErrors(t, Protocol, prototest.BadOptions{"request: bogus": "request", "encoding: koi8-r": "koi8-r"})
}

// TestQueryEncoding: UT99 and BF1942 are Windows games: names that are not
// UTF-8 read as Windows-1252 (0x80-0x9F marks included), or as Windows-1251
// with `encoding: windows-1251`.
func TestQueryEncoding(t *testing.T) {
	t.Parallel()
	d := []byte(`\hostname\` + string(prototest.MafiaName) + `\gamename\ut\numplayers\1\maxplayers\8\player_0\` + string(prototest.Marks1252) + `\final\\queryid\1.1`)
	for enc, want := range map[string][2]string{
		"":             {prototest.MafiaNameText, prototest.Marks1252Text},
		"windows-1251": {prototest.MafiaNameAs["windows-1251"], "„Cash & Cars“ – Ђ5…"},
	} {
		s := protocols.Settings{Players: true, Options: prototest.OptionsOf(Options{Encoding: prototest.CodePage(t, enc)})}
		res, _, err := prototest.QueryNew(t, Protocol, prototest.UDP(t, serve(t, d)), s, gt.Long)
		prototest.NoError(t, err)
		if res.Name != want[0] || len(res.PlayerList) != 1 || res.PlayerList[0].Name != want[1] {
			t.Errorf("encoding %q: name %q players %+v, want %q", enc, res.Name, res.PlayerList, want)
		}
	}
}

func BenchmarkQuery(b *testing.B) {
	parts := readParts(b, "ut_shuffled")
	addr := prototest.UDP(b, func([]byte) [][]byte { return parts })
	prototest.QueryBench(b, Protocol, protocols.Settings{Players: true, Rules: true}, addr)
}

// TestQstat queries one fake server with quakestat -gps and with the Querier. The
// names are ASCII: qstat drops Latin-1 bytes from names.
func TestQstat(t *testing.T) {
	addr := prototest.UDP(t, serve(t,
		[]byte(`\player_1\Beta\frags_1\3\ping_1\ 70\team_1\1\queryid\31.2\final\`),
		[]byte(`\gamename\ut\gamever\451\hostname\Cross Check [US]\hostport\7777\mapname\CTF-Face\gametype\CTFGame\numplayers\2\maxplayers\12\password\False\player_0\Alpha\frags_0\10\ping_0\ 40\team_0\0\queryid\31.1`),
	))
	res, qs := prototest.QstatQuery(t, "-gps", addr, Protocol, players)
	if len(res.PlayerList) != qs.NumPlayers {
		t.Errorf("%d players, qstat says %d", len(res.PlayerList), qs.NumPlayers)
	}
}
