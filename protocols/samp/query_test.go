package samp

import (
	"bytes"
	"errors"
	"net/netip"
	"sync/atomic"
	"testing"
	"time"

	"github.com/gameserver-exporter/gameserver_exporter/protocols"
	"github.com/gameserver-exporter/gameserver_exporter/protocols/prototest"
	"github.com/gameserver-exporter/gameserver_exporter/protocols/wire"
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

func newQ(t testing.TB, s protocols.Settings, variant, encoding string) protocols.Querier {
	t.Helper()
	s.Options = func(v any) error {
		o := v.(*Options)
		o.Variant, o.Encoding = variant, encoding
		return nil
	}
	q, err := Protocol.New(s)
	if err != nil {
		t.Fatal(err)
	}
	return q
}

func run(t testing.TB, q protocols.Querier, addr netip.AddrPort, d time.Duration) (*protocols.Result, *wire.Trace, error) {
	t.Helper()
	return prototest.QueryWithin(t, q, addr, d)
}

func infoOf(res *protocols.Result) map[string]string {
	m := map[string]string{}
	for _, kv := range res.InfoKV() {
		m[kv.Key] = kv.Value
	}
	return m
}

var all = protocols.Settings{Players: true, Rules: true}

func TestQuerySAMP(t *testing.T) {
	f := sampServer(t)
	res, tr, err := run(t, newQ(t, all, "", ""), f.start(t), 2*time.Second)
	if err != nil {
		t.Fatal(err)
	}
	if res.Name != "Fake Roleplay" || res.Game != "Freeroam v2" || res.Map != "San Andreas" || res.Version != "0.3.7-R2" ||
		res.Players != protocols.Known(3) || res.MaxPlayers != protocols.Known(50) || res.Password != protocols.FlagFalse || res.PhaseErrors != nil {
		t.Errorf("result %+v", res)
	}
	if len(res.Rules) != 6 || len(res.PlayerList) != 3 || res.PlayerList[1] != (protocols.Player{Name: "Sweet", Score: protocols.Known(-3), Ping: protocols.Known(80)}) {
		t.Errorf("rules %q players %+v", res.Rules, res.PlayerList)
	}
	if got := prototest.PhaseReasons(tr); got != "info:ok,rules:ok,players:ok" {
		t.Errorf("phases %s", got)
	}
	if f.asked[opClients].Load() != 0 || f.asked[opExtra].Load() != 0 || f.bad.Load() != 0 {
		t.Errorf("asked 'c' %d, 'o' %d times, %d bad requests", f.asked[opClients].Load(), f.asked[opExtra].Load(), f.bad.Load())
	}
	if infoOf(res)["variant"] != "samp" || infoOf(res)["language"] != "English" {
		t.Errorf("info %v", infoOf(res))
	}
	prototest.CheckUTF8(t, res)
}

// The default module asks the rules too (the version and map are there) but
// keeps them only with rules: true, and asks no players.
func TestQueryDefaults(t *testing.T) {
	f := sampServer(t)
	res, tr, err := run(t, newQ(t, protocols.Settings{}, "", ""), f.start(t), 2*time.Second)
	if err != nil {
		t.Fatal(err)
	}
	if res.Version != "0.3.7-R2" || res.Rules != nil || res.PlayerList != nil || prototest.PhaseReasons(tr) != "info:ok,rules:ok" {
		t.Errorf("version %q rules %q players %v phases %s", res.Version, res.Rules, res.PlayerList, prototest.PhaseReasons(tr))
	}
}

// open.mp recognised by its rules' version: 'o' for the extra info, 'c' for the
// players, and 'd' never asked.
func TestQueryOpenMPDetected(t *testing.T) {
	f := openMPServer(t)
	res, tr, err := run(t, newQ(t, all, "", ""), f.start(t), 2*time.Second)
	if err != nil {
		t.Fatal(err)
	}
	if res.Version != "omp 1.4.0.2779" || len(res.PlayerList) != 3 || res.PlayerList[2].Name != "Big_Smoke" || res.PlayerList[2].Ping.Known || res.PhaseErrors != nil {
		t.Errorf("result %+v", res)
	}
	if in := infoOf(res); in["variant"] != "openmp" || in["discord"] != "discord.gg/openmp" || in["banner_light"] != "https://example.org/banner-light.png" {
		t.Errorf("info %v", in)
	}
	if got := prototest.PhaseReasons(tr); got != "info:ok,rules:ok,extra:ok,players:ok" {
		t.Errorf("phases %s", got)
	}
	if f.asked[opDetailed].Load() != 0 {
		t.Errorf("'d' asked %d times", f.asked[opDetailed].Load())
	}
}

// A server that leaves 'd' unanswered (open.mp issue 1147) and whose rules do
// not say open.mp: 'd' gets half the time left, then 'c' answers.
func TestQueryFallbackToClientList(t *testing.T) {
	f := sampServer(t)
	delete(f.replies, opDetailed)
	// 'c' gets what 'd' left: room for it on a busy machine too.
	res, tr, err := run(t, newQ(t, protocols.Settings{Players: true}, "", ""), f.start(t), 4*time.Second)
	if err != nil {
		t.Fatal(err)
	}
	if len(res.PlayerList) != 3 || res.PlayerList[0] != (protocols.Player{Name: "Carl_Johnson", Score: protocols.Known(12)}) || res.PhaseErrors != nil {
		t.Errorf("players %+v, phase errors %v", res.PlayerList, res.PhaseErrors)
	}
	if f.asked[opDetailed].Load() == 0 || f.asked[opClients].Load() != 1 || prototest.PhaseReasons(tr) != "info:ok,rules:ok,players:ok" {
		t.Errorf("'d' %d, 'c' %d, phases %s", f.asked[opDetailed].Load(), f.asked[opClients].Load(), prototest.PhaseReasons(tr))
	}
}

// variant: openmp asks 'o' and 'c' whatever the rules say, even without them.
func TestQueryOpenMPVariant(t *testing.T) {
	f := openMPServer(t)
	delete(f.replies, opRules)
	res, tr, err := run(t, newQ(t, protocols.Settings{Players: true}, "openmp", ""), f.start(t), time.Second)
	if err != nil {
		t.Fatal(err)
	}
	if len(res.PlayerList) != 3 || infoOf(res)["discord"] != "discord.gg/openmp" || f.asked[opDetailed].Load() != 0 {
		t.Errorf("result %+v", res)
	}
	if got := prototest.PhaseReasons(tr); got != "info:ok,rules:timeout,extra:ok,players:ok" || len(res.PhaseErrors) != 1 || res.PhaseErrors[0].Phase != "rules" {
		t.Errorf("phases %s, phase errors %v", got, res.PhaseErrors)
	}
}

func TestQueryVCMP(t *testing.T) {
	f := vcmpServer(t)
	res, tr, err := run(t, newQ(t, all, "vcmp", ""), f.start(t), 2*time.Second)
	if err != nil {
		t.Fatal(err)
	}
	if res.Name != "VC Test Server" || res.Map != "Vice City" || res.Version != "04rel006" || res.Players != protocols.Known(2) ||
		len(res.PlayerList) != 2 || res.PlayerList[1] != (protocols.Player{Name: "Lance"}) || res.Rules != nil || res.PhaseErrors != nil {
		t.Errorf("result %+v", res)
	}
	if got := prototest.PhaseReasons(tr); got != "info:ok,players:ok" || f.bad.Load() != 0 {
		t.Errorf("phases %s, %d bad requests", got, f.bad.Load())
	}
	// A SA-MP querier gets nothing from a VC:MP server (it drops SAMP requests).
	if _, _, err := run(t, newQ(t, protocols.Settings{}, "", ""), f.start(t), 300*time.Millisecond); !errors.Is(err, wire.ErrTimeout) {
		t.Errorf("SAMP request to VC:MP: %v", err)
	}
}

func TestQueryEncoding(t *testing.T) {
	f := &fake{magic: "SAMP", replies: map[byte][][]byte{opInfo: {vec(t, "info_cp1251")}, opRules: {vec(t, "rules_samp")}}}
	addr := f.start(t)
	res, _, err := run(t, newQ(t, protocols.Settings{}, "", "windows-1251"), addr, time.Second)
	if err != nil || res.Name != "Русский сервер" {
		t.Errorf("windows-1251: %q, %v", res.Name, err)
	}
	res, _, err = run(t, newQ(t, protocols.Settings{}, "", ""), addr, time.Second)
	if err != nil || res.Name != "Ðóññêèé ñåðâåð" {
		t.Errorf("auto: %q, %v", res.Name, err)
	}
}

// No player request for an empty server, nor past 100 players (servers leave the
// list unanswered then).
func TestQueryPlayersNotAsked(t *testing.T) {
	f := sampServer(t)
	f.replies[opInfo] = [][]byte{vec(t, "info_cp1252")} // 0 players
	res, _, err := run(t, newQ(t, protocols.Settings{Players: true}, "", ""), f.start(t), time.Second)
	if err != nil || res.PlayerList == nil || len(res.PlayerList) != 0 || f.asked[opDetailed].Load() != 0 {
		t.Errorf("empty server: %+v, %v, 'd' asked %d", res, err, f.asked[opDetailed].Load())
	}
	big := vec(t, "info_samp")
	big[headerLen+1], big[headerLen+2] = 101, 0 // 101 players
	big[headerLen+3], big[headerLen+4] = 200, 0
	f = sampServer(t)
	f.replies[opInfo] = [][]byte{big}
	res, tr, err := run(t, newQ(t, protocols.Settings{Players: true}, "", ""), f.start(t), time.Second)
	if err != nil || res.PlayerList != nil || res.Players != protocols.Known(101) || f.asked[opDetailed].Load()+f.asked[opClients].Load() != 0 {
		t.Errorf("101 players: %+v, %v", res, err)
	}
	if prototest.PhaseReasons(tr) != "info:ok,rules:ok" {
		t.Errorf("phases %s", prototest.PhaseReasons(tr))
	}
}

// Strays, replies to another opcode or address, and broken replies.
func TestQueryHostileReplies(t *testing.T) {
	good := vec(t, "info_samp")
	for _, c := range []struct {
		name   string
		h      func(req []byte) [][]byte
		reason string // "" : success
	}{
		{"strays then the reply", func(req []byte) [][]byte {
			if req[10] != opInfo {
				return nil
			}
			other := stamp(vec(t, "rules_samp"), req)
			port := stamp(good, req)
			port[8]++
			return [][]byte{[]byte("junk"), other, port, stamp(good, req)}
		}, ""},
		{"only a reply for another port", func(req []byte) [][]byte {
			b := stamp(good, req)
			b[9]++
			return [][]byte{b}
		}, "mismatch"},
		{"truncated info", func(req []byte) [][]byte { return [][]byte{stamp(vec(t, "err_info_truncated"), req)} }, "truncated"},
		{"lying length", func(req []byte) [][]byte { return [][]byte{stamp(vec(t, "err_info_lying_length"), req)} }, "truncated"},
		{"huge length", func(req []byte) [][]byte { return [][]byte{stamp(vec(t, "err_info_too_large"), req)} }, "too_large"},
	} {
		t.Run(c.name, func(t *testing.T) {
			res, _, err := run(t, newQ(t, protocols.Settings{}, "", ""), prototest.UDP(t, c.h), 400*time.Millisecond)
			switch {
			case c.reason == "" && (err != nil || res.Name != "Fake Roleplay"):
				t.Errorf("%+v, %v", res, err)
			case c.reason != "" && wire.Reason(err) != c.reason:
				t.Errorf("err %v, want %s", err, c.reason)
			}
		})
	}
}

// Broken rules or players after a good info are phase errors.
func TestQueryPhaseErrors(t *testing.T) {
	f := sampServer(t)
	f.replies[opRules] = [][]byte{vec(t, "err_rules_too_many")}
	f.replies[opDetailed] = [][]byte{vec(t, "err_players_count_lies")}
	res, tr, err := run(t, newQ(t, all, "", ""), f.start(t), time.Second)
	if err != nil {
		t.Fatal(err)
	}
	if len(res.PhaseErrors) != 2 || res.PhaseErrors[0].Phase != "rules" || res.PhaseErrors[1].Phase != "players" || res.Version != "" || res.PlayerList != nil {
		t.Errorf("result %+v", res)
	}
	if got := prototest.PhaseReasons(tr); got != "info:ok,rules:too_large,players:truncated" {
		t.Errorf("phases %s", got)
	}
	// A broken 'd' is the answer: no fall back to 'c'.
	if f.asked[opClients].Load() != 0 {
		t.Errorf("'c' asked after a broken 'd'")
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
