package ase

import (
	"bytes"
	"fmt"
	"net/netip"
	"os"
	"path/filepath"
	"reflect"
	"testing"
	"time"

	"github.com/gameserver-exporter/gameserver_exporter/protocols"
	"github.com/gameserver-exporter/gameserver_exporter/protocols/prototest"
	"github.com/gameserver-exporter/gameserver_exporter/protocols/wire"
)

func lp(s string) []byte { return append([]byte{byte(len(s) + 1)}, s...) }

// bigReply builds an EYE1 reply with n players, long enough to need splitting.
func bigReply(n int) []byte {
	b := append([]byte(nil), magic...)
	for _, s := range []string{"bf1942", "14567", "Big Server", "conquest", "Wake Island", "1.61", "0", fmt.Sprint(n), "64"} {
		b = append(b, lp(s)...)
	}
	b = append(b, lp("tickets")...)
	b = append(b, lp("150")...)
	b = append(b, 0x01)
	for i := range n {
		b = append(b, 0x3F)
		for _, s := range []string{fmt.Sprintf("player_number_%03d", i), "1", "", fmt.Sprint(i), "50", "120"} {
			b = append(b, lp(s)...)
		}
	}
	return b
}

// split cuts body into fragments per spec §5: every fragment but the last is exactly
// fragmentSize bytes; fragment 1 keeps the magic, later ones carry "EYE<n>"; each
// ends with the 4-byte reply id.
func split(body []byte, id string) [][]byte {
	var out [][]byte
	rest := body
	for n := 1; len(rest) > 0; n++ {
		var f []byte
		if n > 1 {
			f = append(f, 'E', 'Y', 'E', byte('0'+n))
		}
		room := fragmentSize - len(f) - idLen
		take := min(room, len(rest))
		f = append(f, rest[:take]...)
		rest = rest[take:]
		out = append(out, append(f, id...))
	}
	return out
}

var all = protocols.Settings{Players: true, Rules: true}

func TestQueryReplies(t *testing.T) {
	t.Parallel()
	frags := split(bigReply(120), "abcd")
	// A whole reply of exactly fragmentSize bytes looks like fragment 1 of 2
	// (qstat's rule): the probe waits for a fragment 2 that never comes, then
	// reports the header with the rest flagged lost.
	exact := append([]byte(nil), magic...)
	for _, s := range []string{"bf1942", "14567", "Exact", "ctf", "Berlin", "1.6", "0", "0", "32", "pad"} {
		exact = append(exact, lp(s)...)
	}
	pad := fragmentSize - len(exact) - 2 // value length byte + end-of-rules byte
	exact = append(append(exact, lp(string(bytes.Repeat([]byte{'x'}, pad)))...), 0x01)
	if len(exact) != fragmentSize {
		t.Fatalf("built %d bytes", len(exact))
	}
	for _, tc := range []struct {
		name    string
		s       protocols.Settings
		d       time.Duration
		replies [][]byte
		want    string
	}{
		{"single", all, 2 * time.Second, [][]byte{prototest.VecFile(t, "basic")},
			`"Café Server" "mp_Training" "farcry" "1.4" 3/16 bots ? pw 2 [OnlyName Scorer Full] rules 2 info 9 partial [] | info:ok skipped 0 log 0`},
		// Lists not asked for, and their phase errors, are left out.
		{"nothing asked", protocols.Settings{}, 2 * time.Second, [][]byte{prototest.VecFile(t, "rules_cut")},
			`"RulesCut" "LS" "mta" "1.6" 3/100 bots ? pw 1 - rules - info 9 partial [] | info:ok skipped 0 log 0`},
		{"partial", all, 2 * time.Second, [][]byte{prototest.VecFile(t, "player_cut")},
			`"Cut" "LS" "mta" "1.6" 3/100 bots ? pw 1 [One Two] rules - info 9 partial [players:truncated] | info:ok skipped 0 log 0`},
		// The fragments before the gap are decoded; the header is kept.
		{"middle fragment lost", all, time.Second, [][]byte{frags[0], frags[2]},
			`"Big Server" "Wake Island" "bf1942" "1.61" 120/64 bots ? pw 1 [40 players] rules 1 info 9 partial [players:timeout] | info:ok skipped 0 log 1`},
		{"exact size single", all, time.Second, [][]byte{exact},
			`"Exact" "Berlin" "bf1942" "1.6" 0/32 bots ? pw 1 - rules 6 info 9 partial [rules:timeout players:timeout] | info:ok skipped 0 log 1`},
		{"first fragment lost", all, 300 * time.Millisecond, frags[1:],
			`error timeout | info:timeout skipped 0 log 0`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			res, tr, err := prototest.QueryNew(t, Protocol, prototest.Answering(t, []byte("s"), tc.replies...), tc.s, tc.d)
			prototest.CheckProbe(t, res, tr, err, tc.want)
		})
	}
}

func TestQuerySplit(t *testing.T) {
	body := bigReply(120)
	want, err := decode(body, wire.UTF8)
	if err != nil || want.PlayersErr != nil {
		t.Fatal(err, want.PlayersErr)
	}
	frags := split(body, "\x01\x02\x03\x04")
	if len(frags) < 3 {
		t.Fatalf("want at least 3 fragments, got %d", len(frags))
	}
	other := split(bigReply(90), "\x09\x09\x09\x09")
	for name, reply := range map[string][][]byte{
		"in order":   frags,
		"reversed":   {frags[2], frags[1], frags[0]},
		"duplicated": {frags[1], frags[0], frags[1], frags[0], frags[2], frags[2]},
		"strays":     {frags[0], []byte("garbage"), other[1], []byte("EYEZ...."), frags[2], frags[1]},
	} {
		t.Run(name, func(t *testing.T) {
			res, _ := prototest.QueryOK(t, Protocol, prototest.UDP(t, func([]byte) [][]byte { return reply }), all, 2*time.Second)
			if res.PhaseErrors != nil || !reflect.DeepEqual(res.PlayerList, want.PlayerList) ||
				res.Name != "Big Server" || res.Players != protocols.Known(120) {
				t.Errorf("got %d players, phase errors %v", len(res.PlayerList), res.PhaseErrors)
			}
		})
	}
}

// TestEncoding: `encoding: windows-1251` reads a Cyrillic server's name, its
// info and rules, player names and teams (testdata/cp1251.vec) in its code
// page; by default the same bytes read as they always have, Windows-1252 for
// what is not UTF-8.
func TestEncoding(t *testing.T) {
	t.Parallel()
	addr := prototest.Answering(t, []byte("s"), prototest.VecFile(t, "cp1251"))
	const cp1252 = "Ñåðâåð ¹1|Ñåðâåð ¹1|Ìîñêâà|Èãðîê/Ñèíèå"
	prototest.QueryEncodings(t, Protocol, addr, "servername", "location", map[string]string{
		"": cp1252, "auto": cp1252, "utf-8": cp1252, "windows-1251": "Сервер №1|Сервер №1|Москва|Игрок/Синие",
	})
}

func TestOptionsErrors(t *testing.T) {
	prototest.OptionsErrors(t, Protocol, prototest.BadOptions{"encoding: koi8-r": `ase options: unknown encoding "koi8-r"`})
}

func TestQueryFailures(t *testing.T) {
	t.Parallel()
	prototest.ReplyFailures(t, Protocol, []byte("s"), protocols.Settings{Players: true, Retries: 1},
		prototest.ReplyFailure{Name: "garbage only", Replies: [][]byte{[]byte("xyz"), []byte("EYE")}, D: 300 * time.Millisecond, Want: wire.ErrTimeout},
		prototest.ReplyFailure{Name: "truncated header", Replies: [][]byte{prototest.VecFile(t, "header_overrun")}, Want: wire.ErrTruncated},
		prototest.ReplyFailure{Name: "zero length byte", Replies: [][]byte{prototest.VecFile(t, "header_zero_len")}, Want: wire.ErrMalformed},
	)
}

// Silence and a closed port are failures too: the contract checks them.
func TestQuerierContract(t *testing.T) {
	t.Parallel()
	reply := prototest.VecFile(t, "minimal")
	prototest.QuerierContract(t, prototest.Contract{
		Protocol: Protocol, Name: "ase", DefaultPort: 22003, PortOffset: 123, Transport: "udp",
		Settings: protocols.Settings{Players: true},
		Answer:   func([]byte) [][]byte { return [][]byte{reply} },
		Check: func(t testing.TB, res *protocols.Result, _ *wire.Trace) {
			if res.Game != "mta" {
				t.Errorf("game %q", res.Game)
			}
		},
		RetryAttempts: 2,
	})
}

// TestQstat queries the same fake servers with quakestat -eye and with the Querier.
// quakestat adds the 123 offset to the port it is given (checked by hand: asked for
// port P it sends "s" to P+123), so it is handed the fake server's port - 123, while
// the Querier, like the exporter after applying PortOffset, gets the port itself.
func TestQstat(t *testing.T) {
	replies := map[string][][]byte{
		"basic": {prototest.VecFile(t, "basic")},
		"big":   {bigReply(80)},
		"split": split(bigReply(80), "\x00\x00\x00\x07"),
	}
	// The real capture joins in when ../shared is there; the own vectors run regardless.
	if b, err := os.ReadFile(filepath.Join(prototest.SharedDir(), "fixtures", "ase", "mta_s_2.bin")); err == nil && prototest.SharedDir() != "" {
		replies["mta_s_2"] = [][]byte{b}
	}
	for name, reply := range replies {
		t.Run(name, func(t *testing.T) {
			addr := prototest.UDP(t, func([]byte) [][]byte { return reply })
			gamePort := netip.AddrPortFrom(addr.Addr(), addr.Port()-123)
			qs := prototest.QstatOne(t, "-P", "-R", "-eye", gamePort.String())

			res, _ := prototest.QueryOK(t, Protocol, addr, all, 5*time.Second)
			if prototest.QstatASCII(res.Name) != qs.Name || res.Map != qs.Map || res.Players.Value != int64(qs.NumPlayers) ||
				res.MaxPlayers.Value != int64(qs.MaxPlayers) {
				t.Errorf("querier %q %q %v/%v, qstat %q %q %d/%d", res.Name, res.Map, res.Players, res.MaxPlayers,
					qs.Name, qs.Map, qs.NumPlayers, qs.MaxPlayers)
			}
			if qs.Rules["gamename"] != res.Game || qs.Rules["_version"] != res.Version {
				t.Errorf("game %q version %q, qstat %q %q", res.Game, res.Version, qs.Rules["gamename"], qs.Rules["_version"])
			}
			for _, kv := range res.Rules {
				if v, ok := qs.Rules[kv.Key]; !ok || v != kv.Value {
					t.Errorf("rule %s = %q, qstat %q", kv.Key, kv.Value, v)
				}
			}
			if len(res.PlayerList) != len(qs.Players) {
				t.Fatalf("%d players, qstat %d", len(res.PlayerList), len(qs.Players))
			}
			for i, p := range res.PlayerList {
				q := qs.Players[i]
				team := q.Team()
				if team == "0" && p.Team == "" {
					team = "" // quakestat prints 0 for a record without a team
				}
				if p.Name != q.Name || p.Team != team || p.Score.Value != q.Score || p.Ping.Value != q.Ping {
					t.Errorf("player %d: %+v, qstat %+v", i, p, q)
				}
			}
		})
	}
}

func BenchmarkQuery(b *testing.B) {
	reply := bigReply(50)
	prototest.QueryBench(b, Protocol, all, prototest.UDP(b, func([]byte) [][]byte { return [][]byte{reply} }))
}
