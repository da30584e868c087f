package samp

import (
	"bytes"
	"fmt"
	"net/netip"
	"sync/atomic"
	"testing"
	"time"

	"github.com/gameserver-exporter/gameserver_exporter/protocols"
	"github.com/gameserver-exporter/gameserver_exporter/protocols/prototest"
)

// fake is a server of one variant: it answers each opcode with its replies
// (none: silence, as open.mp to 'd'), re-stamped with the request's header, and
// checks requests the way the servers do (11 bytes, its magic).
type fake struct {
	magic   string // "SAMP" or "VCMP"
	replies map[byte][][]byte
	asked   [256]atomic.Int32
	bad     atomic.Int32 // requests a real server would drop
}

func (f *fake) handle(req []byte) [][]byte {
	if len(req) != headerLen || string(req[:4]) != f.magic {
		f.bad.Add(1)
		return nil
	}
	f.asked[req[10]].Add(1)
	var out [][]byte
	for _, r := range f.replies[req[10]] {
		out = append(out, stamp(r, req))
	}
	return out
}

// stamp copies the reply with the request's address and port (the reply's
// magic and opcode kept).
func stamp(reply, req []byte) []byte {
	out := bytes.Clone(reply)
	if len(out) >= headerLen {
		copy(out[4:10], req[4:10])
	}
	return out
}

func (f *fake) start(t testing.TB) netip.AddrPort { return prototest.UDP(t, f.handle) }

func sampServer(t testing.TB) *fake {
	return &fake{magic: "SAMP", replies: map[byte][][]byte{
		opInfo: {vec(t, "info_samp")}, opRules: {vec(t, "rules_samp")},
		opDetailed: {vec(t, "players_d")}, opClients: {vec(t, "players_c")},
	}}
}

// openMPServer answers as open.mp's query.cpp: 'o' and 'c', never 'd'.
func openMPServer(t testing.TB) *fake {
	return &fake{magic: "SAMP", replies: map[byte][][]byte{
		opInfo: {vec(t, "info_samp")}, opRules: {vec(t, "rules_openmp")},
		opClients: {vec(t, "players_c")}, opExtra: {vec(t, "extra_openmp")},
	}}
}

func vcmpServer(t testing.TB) *fake {
	return &fake{magic: "VCMP", replies: map[byte][][]byte{
		opInfo: {vec(t, "info_vcmp")}, opClients: {vec(t, "players_c_vcmp")},
	}}
}

var all = protocols.Settings{Players: true, Rules: true}

// with is s with the module's variant and encoding.
func with(s protocols.Settings, variant, encoding string) protocols.Settings {
	s.Options = prototest.OptionsYAML(fmt.Sprintf("{variant: %q, encoding: %q}", variant, encoding))
	return s
}

func TestQueryReplies(t *testing.T) {
	players := protocols.Settings{Players: true}
	good := vec(t, "info_samp")
	big := vec(t, "info_samp")
	big[headerLen+1], big[headerLen+2] = 101, 0 // 101 players
	big[headerLen+3], big[headerLen+4] = 200, 0
	reply := func(file string) prototest.Handler {
		return func(req []byte) [][]byte { return [][]byte{stamp(vec(t, file), req)} }
	}
	for _, tc := range []struct {
		name  string
		f     *fake
		edit  func(f *fake)
		h     prototest.Handler // instead of f's
		s     protocols.Settings
		d     time.Duration
		want  string
		asked string // requests 'd'/'c'/'o', and those a real server would drop
		info  map[string]string
	}{
		// The query tells no NPC from a player (open.mp counts its bots among the
		// players and lists them alike, taking them off the max): Players is the
		// info's count as sent, Bots stays unknown and no listed player is marked.
		{"samp", sampServer(t), nil, nil, all, 2 * time.Second, `"Fake Roleplay" "San Andreas" "Freeroam v2" "0.3.7-R2" 3/50 bots ? pw 1 [Carl_Johnson Sweet René] rules 6 info 7 partial [] | info:ok,rules:ok,players:ok`, "1/0/0/0", map[string]string{"variant": "samp", "language": "English"}},
		// The default module asks the rules too (the version and map are there)
		// but keeps them only with rules: true, and asks no players.
		{"defaults", sampServer(t), nil, nil, protocols.Settings{}, 2 * time.Second, `"Fake Roleplay" "San Andreas" "Freeroam v2" "0.3.7-R2" 3/50 bots ? pw 1 - rules - info 7 partial [] | info:ok,rules:ok`, "0/0/0/0", nil},
		// open.mp recognised by its rules' version: 'o' for the extra info, 'c'
		// for the players, and 'd' never asked.
		{"open.mp detected", openMPServer(t), nil, nil, all, 2 * time.Second, `"Fake Roleplay" "San Andreas" "Freeroam v2" "omp 1.4.0.2779" 3/50 bots ? pw 1 [Carl_Johnson Sweet Big_Smoke] rules 7 info 11 partial [] | info:ok,rules:ok,extra:ok,players:ok`, "0/1/1/0",
			map[string]string{"variant": "openmp", "discord": "discord.gg/openmp", "banner_light": "https://example.org/banner-light.png"}},
		// A server that leaves 'd' unanswered (open.mp issue 1147) and whose
		// rules do not say open.mp: 'd' gets half the time left, then 'c'
		// answers (room for it on a busy machine too).
		{"fallback to the client list", sampServer(t), func(f *fake) { delete(f.replies, opDetailed) }, nil, players, 4 * time.Second, `"Fake Roleplay" "San Andreas" "Freeroam v2" "0.3.7-R2" 3/50 bots ? pw 1 [Carl_Johnson Sweet Big_Smoke] rules - info 7 partial [] | info:ok,rules:ok,players:ok`, "", nil},
		// variant: openmp asks 'o' and 'c' whatever the rules say, even without them.
		{"open.mp variant", openMPServer(t), func(f *fake) { delete(f.replies, opRules) }, nil, with(players, "openmp", ""), time.Second, `"Fake Roleplay" "" "Freeroam v2" "" 3/50 bots ? pw 1 [Carl_Johnson Sweet Big_Smoke] rules - info 11 partial [rules:timeout] | info:ok,rules:timeout,extra:ok,players:ok`, "0/1/1/0",
			map[string]string{"discord": "discord.gg/openmp"}},
		{"vc:mp", vcmpServer(t), nil, nil, with(all, "vcmp", ""), 2 * time.Second, `"VC Test Server" "Vice City" "Default" "04rel006" 2/100 bots ? pw 1 [Tommy Lance] rules - info 8 partial [] | info:ok,players:ok`, "0/1/0/0", nil},
		// A SA-MP querier gets nothing from a VC:MP server (it drops SAMP requests).
		{"samp request to vc:mp", vcmpServer(t), nil, nil, protocols.Settings{}, 300 * time.Millisecond, `error timeout`, "", nil},
		{"windows-1251", &fake{magic: "SAMP", replies: map[byte][][]byte{opInfo: {vec(t, "info_cp1251")}, opRules: {vec(t, "rules_samp")}}},
			nil, nil, with(protocols.Settings{}, "", "windows-1251"), time.Second, `"Русский сервер" "San Andreas" "RP" "0.3.7-R2" 1/64 bots ? pw 1 - rules - info 7 partial [] | info:ok,rules:ok`, "", nil},
		{"windows-1252", &fake{magic: "SAMP", replies: map[byte][][]byte{opInfo: {vec(t, "info_cp1251")}, opRules: {vec(t, "rules_samp")}}},
			nil, nil, protocols.Settings{}, time.Second, `"Ðóññêèé ñåðâåð" "San Andreas" "RP" "0.3.7-R2" 1/64 bots ? pw 1 - rules - info 7 partial [] | info:ok,rules:ok`, "", nil},
		// No player request for an empty server, nor past 100 players (servers
		// leave the list unanswered then).
		{"empty server", sampServer(t), func(f *fake) { f.replies[opInfo] = [][]byte{vec(t, "info_cp1252")} }, nil, players, time.Second, `"Café € Server" "San Andreas" "DM" "0.3.7-R2" 0/100 bots ? pw 2 [] rules - info 7 partial [] | info:ok,rules:ok`, "0/0/0/0", nil},
		{"101 players", sampServer(t), func(f *fake) { f.replies[opInfo] = [][]byte{big} }, nil, players, time.Second, `"Fake Roleplay" "San Andreas" "Freeroam v2" "0.3.7-R2" 101/200 bots ? pw 1 - rules - info 7 partial [] | info:ok,rules:ok`, "0/0/0/0", nil},
		// Broken rules or players after a good info are phase errors; a broken
		// 'd' is the answer: no fall back to 'c'.
		{"phase errors", sampServer(t), func(f *fake) {
			f.replies[opRules] = [][]byte{vec(t, "err_rules_too_many")}
			f.replies[opDetailed] = [][]byte{vec(t, "err_players_count_lies")}
		}, nil, all, time.Second, `"Fake Roleplay" "" "Freeroam v2" "" 3/50 bots ? pw 1 - rules - info 7 partial [rules:too_large players:truncated] | info:ok,rules:too_large,players:truncated`, "1/0/0/0", nil},
		// Strays, replies to another opcode or address, and broken replies.
		{"strays then the reply", nil, nil, func(req []byte) [][]byte {
			if req[10] != opInfo {
				return nil
			}
			port := stamp(good, req)
			port[8]++
			return [][]byte{[]byte("junk"), stamp(vec(t, "rules_samp"), req), port, stamp(good, req)}
		}, protocols.Settings{}, 400 * time.Millisecond, `"Fake Roleplay" "" "Freeroam v2" "" 3/50 bots ? pw 1 - rules - info 7 partial [rules:timeout] | info:ok,rules:timeout`, "", nil},
		{"only a reply for another port", nil, nil, func(req []byte) [][]byte {
			b := stamp(good, req)
			b[9]++
			return [][]byte{b}
		}, protocols.Settings{}, 400 * time.Millisecond, `error mismatch`, "", nil},
		{"truncated info", nil, nil, reply("err_info_truncated"), protocols.Settings{}, 400 * time.Millisecond, `error truncated | info:truncated`, "", nil},
		{"lying length", nil, nil, reply("err_info_lying_length"), protocols.Settings{}, 400 * time.Millisecond, `error truncated | info:truncated`, "", nil},
		{"huge length", nil, nil, reply("err_info_too_large"), protocols.Settings{}, 400 * time.Millisecond, `error too_large | info:too_large`, "", nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			h := tc.h
			if tc.f != nil {
				if tc.edit != nil {
					tc.edit(tc.f)
				}
				h = tc.f.handle
			}
			res, tr, err := prototest.QueryNew(t, Protocol, prototest.UDP(t, h), tc.s, tc.d)
			prototest.CheckProbe(t, res, tr, err, tc.want)
			if tc.f != nil && tc.asked != "" {
				f := tc.f
				if got := fmt.Sprintf("%d/%d/%d/%d", f.asked[opDetailed].Load(), f.asked[opClients].Load(), f.asked[opExtra].Load(), f.bad.Load()); got != tc.asked {
					t.Errorf("requests 'd'/'c'/'o'/dropped %s, want %s", got, tc.asked)
				}
			}
			if res != nil {
				prototest.CheckInfoHas(t, res, tc.info)
				prototest.CheckUTF8(t, res)
				prototest.CheckBots(t, res, res.Players.Value, prototest.Unknown, true) // no bots: the count and the list are players
			}
		})
	}
}

func TestOptionsErrors(t *testing.T) {
	prototest.OptionsErrors(t, Protocol, prototest.BadOptions{
		"variant: sa-mp":   `samp options: unknown variant "sa-mp"`,
		"encoding: koi8-r": `samp options: unknown encoding "koi8-r"`,
	})
}

func TestQuerierContract(t *testing.T) {
	f := sampServer(t)
	prototest.QuerierContract(t, prototest.Contract{
		Protocol:    Protocol,
		Name:        "samp",
		DefaultPort: 7777,
		Transport:   "udp",
		Answer:      f.handle,
		WantName:    "Fake Roleplay",
	})
}

func BenchmarkQuery(b *testing.B) {
	prototest.QueryBench(b, Protocol, all, sampServer(b).start(b))
}
