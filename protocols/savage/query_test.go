package savage

import (
	"bytes"
	"fmt"
	"net/netip"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/gameserver-exporter/gameserver_exporter/protocols"
	"github.com/gameserver-exporter/gameserver_exporter/protocols/prototest"
	"github.com/gameserver-exporter/gameserver_exporter/protocols/wire"
)

// answer returns reply with the request's echo bytes copied in, as a server does.
func answer(req, reply []byte) []byte {
	out := bytes.Clone(reply)
	if len(req) >= 10 && len(out) >= minReply {
		copy(out[echoOffset:minReply], req[6:10])
	}
	return out
}

// server answers CE with ext and C8 with basic (nil: no answer), echoing the request.
func server(t testing.TB, ext, basic []byte) prototest.Handler {
	return func(req []byte) [][]byte {
		if len(req) != 10 || !bytes.Equal(req[:len(header)], header) {
			t.Errorf("request % X is not a 10-byte Savage query", req)
			return nil
		}
		switch {
		case req[5] == cmdExtInfo && ext != nil:
			return [][]byte{answer(req, ext)}
		case req[5] == cmdInfo && basic != nil:
			return [][]byte{answer(req, basic)}
		}
		return nil
	}
}

var all = protocols.Settings{Players: true, Rules: true}

// sent is the commands of the requests a probe sent.
func sent(tr *wire.Trace) string {
	var out []string
	for _, p := range tr.Packets {
		if p.Dir == wire.Sent {
			out = append(out, fmt.Sprintf("%02X", p.Data[5]))
		}
	}
	return strings.Join(out, " ")
}

func TestQueryReplies(t *testing.T) {
	t.Parallel()
	ext, basic := prototest.VecFile(t, "ext_basic"), prototest.VecFile(t, "basic_c9")
	wrong := func(req []byte) []byte {
		r := answer(req, ext)
		r[echoOffset] ^= 0x55
		return r
	}
	// A CF that arrives only after the fallback was sent still answers the query.
	var mu sync.Mutex
	var held []byte
	late := func(req []byte) [][]byte {
		mu.Lock()
		defer mu.Unlock()
		if req[5] == cmdExtInfo {
			held = req // hold the answer back
			return nil
		}
		return [][]byte{answer(held, ext)}
	}
	for _, tc := range []struct {
		name       string
		h          prototest.Handler
		d          time.Duration
		want, sent string
	}{
		{"extended", server(t, ext, basic), 2 * time.Second, `"Newerth Arena" "eden2" "RTSS" "12" 3/16 bots ? pw 2 [Alice Bob Carol] rules 12 info 18 partial [] | info:ok skipped 0 log 0`, "CE"},
		// The fallback goes out after half the deadline: the other half must hold
		// the C8 round trip on a busy machine too (1 s failed beside four CPU hogs).
		{"fallback", server(t, nil, basic), 4 * time.Second, `"Basic" "crossroads" "DM" "10" 0/32 bots ? pw 1 - rules 8 info 13 partial [players:timeout] | info:ok skipped 0 log 1`, "CE C8"},
		{"late extended", late, time.Second, `"Newerth Arena" "eden2" "RTSS" "12" 3/16 bots ? pw 2 [Alice Bob Carol] rules 12 info 18 partial [] | info:ok skipped 0 log 1`, "CE C8"},
		{"echo mismatch only", func(req []byte) [][]byte { return [][]byte{wrong(req)} }, 300 * time.Millisecond, `error mismatch`, ""},
		{"echo mismatch then match", func(req []byte) [][]byte { return [][]byte{wrong(req), []byte("noise"), answer(req, ext)} }, 2 * time.Second, `"Newerth Arena" "eden2" "RTSS" "12" 3/16 bots ? pw 2 [Alice Bob Carol] rules 12 info 18 partial [] | info:ok skipped 2 log 0`, "CE"},
		{"partial", server(t, prototest.VecFile(t, "game_truncated"), nil), 2 * time.Second, `"Cut" "eden2" "RTSS" "12" 2/10 bots ? pw 1 [Alice Bo] rules 2 info 8 partial [rules:truncated players:truncated] | info:ok skipped 0 log 0`, "CE"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			res, tr, err := prototest.QueryNew(t, Protocol, prototest.UDP(t, tc.h), all, tc.d)
			prototest.CheckProbe(t, res, tr, err, tc.want)
			if tc.name == "extended" {
				prototest.CheckBots(t, res, 3, prototest.Unknown, true)
			}
			if got := sent(tr); tc.sent != "" && got != tc.sent {
				t.Errorf("sent %s, want %s", got, tc.sent)
			}
		})
	}
}

func TestQueryFailures(t *testing.T) {
	t.Parallel()
	tooMany := append(newRequest(cmdExtInfoReply, [4]byte{})[:len(header)+1], 12, 0, 0, 0, 0)
	tooMany = append(tooMany, bytes.Repeat([]byte{0xFF, 'k', 0xFE}, maxPairs+1)...)
	short, ping, flags := prototest.VecFile(t, "short"), prototest.VecFile(t, "ping_reply"), prototest.VecFile(t, "bad_flags")
	prototest.ReplyFailures(t, Protocol, nil, protocols.Settings{Players: true, Retries: 1},
		prototest.ReplyFailure{Name: "garbage", D: 300 * time.Millisecond, Want: wire.ErrTimeout, Handler: func(req []byte) [][]byte {
			return [][]byte{short, answer(req, ping), answer(req, flags)}
		}},
		prototest.ReplyFailure{Name: "too many pairs", Handler: server(t, tooMany, tooMany), Want: wire.ErrTooLarge},
	)
}

// The lost request is re-sent as the extended query (CE), not the basic one. A
// silent server gets CE and then the basic query (C8), each sent up to 3 times.
// Silence and a closed port are failures too: the contract checks them.
func TestQuerierContract(t *testing.T) {
	t.Parallel()
	ext := prototest.VecFile(t, "ext_basic")
	prototest.QuerierContract(t, prototest.Contract{
		Protocol: Protocol, Name: "savage", DefaultPort: 11235, Transport: "udp",
		Settings: protocols.Settings{Players: true},
		Answer:   func(req []byte) [][]byte { return [][]byte{answer(req, ext)} },
		Check: func(t testing.TB, res *protocols.Result, tr *wire.Trace) {
			if len(res.PlayerList) != 3 || tr.Packets[1].Data[5] != cmdExtInfo {
				t.Errorf("players %v, second request % X", res.PlayerList, tr.Packets[1].Data)
			}
		},
		RetryDeadline:  1200 * time.Millisecond,
		RetryAttempts:  2,
		SilentAttempts: [2]int{2, 6},
	})
}

// qstatServer answers like a Savage server for both quakestat and the Querier.
// quakestat sends 9-byte requests (its query arrays lose their last byte), so only
// the echo bytes that arrived are copied back; it does not check the echo.
func qstatServer(t testing.TB, ext, basic []byte) netip.AddrPort {
	return prototest.UDP(t, func(req []byte) [][]byte {
		if len(req) < 6 {
			return nil
		}
		reply := basic
		if req[5] == cmdExtInfo {
			reply = ext
		}
		out := append([]byte(nil), reply...)
		copy(out[echoOffset:minReply], req[6:min(len(req), 10)])
		return [][]byte{out}
	})
}

// TestQstat checks name, map, counts and game type against quakestat -sas (checked
// by hand: it sends C8 without -P and CE with it, keeps colour codes, lists players
// in reverse order with their " (Commander)" suffix, and skips every line starting
// "Team ", so the comparison strips codes and suffixes and ignores order).
func TestQstat(t *testing.T) {
	for _, tc := range []struct {
		vec          string
		comparePlist bool
	}{
		{"ext_basic", true},
		{"xr", false}, // quakestat reads XR's colour-coded headers as players
	} {
		t.Run(tc.vec, func(t *testing.T) {
			addr := qstatServer(t, prototest.VecFile(t, tc.vec), prototest.VecFile(t, "basic_c9"))
			qs := prototest.QstatOne(t, "-P", "-sas", addr.String())
			res, _ := prototest.QueryOK(t, Protocol, addr, all, 5*time.Second)
			if prototest.QstatASCII(res.Name) != strip(qs.Name) || res.Map != strip(qs.Map) || res.Players.Value != int64(qs.NumPlayers) ||
				res.MaxPlayers.Value != int64(qs.MaxPlayers) {
				t.Errorf("querier %q %q %v/%v, qstat %q %q %d/%d", res.Name, res.Map, res.Players, res.MaxPlayers,
					qs.Name, qs.Map, qs.NumPlayers, qs.MaxPlayers)
			}
			if !tc.comparePlist {
				return
			}
			var ours, theirs []string
			for _, p := range res.PlayerList {
				ours = append(ours, p.Name)
			}
			for _, p := range qs.Players {
				theirs = append(theirs, strings.TrimSuffix(strip(p.Name), " (Commander)"))
			}
			slices.Sort(ours)
			slices.Sort(theirs)
			if !slices.Equal(ours, theirs) {
				t.Errorf("players %q, qstat %q", ours, theirs)
			}
			if res.Game != qs.Game {
				t.Errorf("game %q, qstat gametype %q", res.Game, qs.Game)
			}
		})
	}

	t.Run("basic", func(t *testing.T) {
		addr := qstatServer(t, prototest.VecFile(t, "basic_c9"), prototest.VecFile(t, "basic_c9"))
		prototest.QstatQuery(t, "-sas", addr, Protocol, all)
	})
}

func BenchmarkQuery(b *testing.B) {
	prototest.QueryBench(b, Protocol, all, prototest.UDP(b, server(b, prototest.VecFile(b, "ext_basic"), nil)))
}
