package unreal2

import (
	"encoding/binary"
	"errors"
	"fmt"
	"net/netip"
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

func query(t testing.TB, addr netip.AddrPort, s protocols.Settings, d time.Duration) (*protocols.Result, *wire.Trace, error) {
	t.Helper()
	q, err := newQuerier(s)
	if err != nil {
		t.Fatal(err)
	}
	tr := wire.NewTrace()
	start := time.Now()
	res, err := q.Query(prototest.Context(t, d), protocols.At(addr), tr)
	if el := time.Since(start); el > d+2*time.Second+prototest.LagSince(start) {
		t.Errorf("returned after %v, deadline %v", el, d)
	}
	return res, tr, err
}

var all = protocols.Settings{Players: true, Rules: true}

func phaseNames(tr *wire.Trace) string {
	var out []string
	for _, p := range tr.Phases {
		out = append(out, p.Name)
	}
	return fmt.Sprint(out) // one string compares easily
}

func TestQueryFull(t *testing.T) {
	t.Parallel()
	f := &fake{
		info:    [][]byte{infoReply("Big Server", "DM-Deck17", 10, 16)},
		players: playerReplies(10, 4), // three datagrams
		rules:   rulesReplies(4, append([]string{"GamePassword", "True"}, stockRules...)...),
	}
	res, tr, err := query(t, f.start(t), all, 5*time.Second)
	if err != nil {
		t.Fatal(err)
	}
	if res.Name != "Big Server" || res.Map != "DM-Deck17" || res.Game != "xDeathMatch" ||
		res.Players != protocols.Known(10) || res.MaxPlayers != protocols.Known(16) {
		t.Errorf("result %+v", res)
	}
	if len(res.PlayerList) != 10 {
		t.Fatalf("%d players", len(res.PlayerList))
	}
	for i, p := range res.PlayerList {
		if p.Name != playerName(i) || p.Ping != protocols.Known(int64(40+i)) || p.Score != protocols.Known(int64(i*3-5)) || p.Team != "red" {
			t.Errorf("player %d = %+v", i, p)
		}
	}
	if len(res.Rules) != 7 || res.Rules[0] != (protocols.KV{Key: "GamePassword", Value: "True"}) {
		t.Errorf("rules %q", res.Rules)
	}
	if res.Password != protocols.FlagTrue || res.Version != "3369" || res.Bots != protocols.Known(0) {
		t.Errorf("password %v version %q bots %+v", res.Password, res.Version, res.Bots)
	}
	if res.PhaseErrors != nil {
		t.Errorf("phase errors %v", res.PhaseErrors)
	}
	if got := phaseNames(tr); got != "[info players rules]" {
		t.Errorf("phases %s", got)
	}
	for kind, n := range []int32{1, 1, 1, 0} {
		if got := f.asked[kind].Load(); got != n {
			t.Errorf("%d requests of type %d, want %d", got, kind, n)
		}
	}
	prototest.CheckUTF8(t, res)
}

// The players phase ends at the info's count or, short of it, when the server is
// quiet: both without error, and the records short of the count are bots.
func TestQueryPlayersFewerThanCounted(t *testing.T) {
	t.Parallel()
	f := &fake{info: [][]byte{infoReply("Some", "DM-Gael", 7, 16)}, players: playerReplies(3, 2)}
	res, tr, err := query(t, f.start(t), protocols.Settings{Players: true}, 2*time.Second)
	if err != nil {
		t.Fatal(err)
	}
	if len(res.PlayerList) != 3 || res.PhaseErrors != nil || res.Players != protocols.Known(3) || res.Bots != protocols.Known(4) {
		t.Errorf("players %+v, phase errors %v", res.PlayerList, res.PhaseErrors)
	}
	if got := phaseNames(tr); got != "[info players]" {
		t.Errorf("phases %s", got)
	}
}

func TestQueryPhaseFailures(t *testing.T) {
	t.Parallel()
	lying := rulesReplies(3, stockRules...)
	lying[1] = append(lying[1], ustr("AdminEmail")...)
	lying[1] = append(lying[1], 0x40, 'x') // value length past the end
	cutPlayer := append(playerReplies(2, 2)[0], le32(9)...)
	tests := []struct {
		name          string
		f             *fake
		phase         string
		want          error
		players, rule int
		password      protocols.Flag
	}{
		{"players silent", &fake{rules: rulesReplies(6, stockRules...)}, "players", wire.ErrTimeout, 0, 6, protocols.FlagFalse},
		{"rules silent", &fake{players: playerReplies(4, 4)}, "rules", wire.ErrTimeout, 4, 0, protocols.FlagUnknown},
		{"rules lying length", &fake{players: playerReplies(4, 4), rules: lying}, "rules", wire.ErrTruncated, 4, 6, protocols.FlagUnknown},
		{"player record cut", &fake{players: [][]byte{cutPlayer, playerReplies(4, 2)[1]}, rules: rulesReplies(6, stockRules...)}, "players", wire.ErrTruncated, 4, 6, protocols.FlagFalse},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			tc.f.info = [][]byte{infoReply("Half", "DM-Antalus", 4, 8)}
			// 3 s: the quiet period that ends a list is a tenth of the time left.
			res, _, err := query(t, tc.f.start(t), all, 3*time.Second)
			if err != nil {
				t.Fatal(err)
			}
			if len(res.PhaseErrors) != 1 || res.PhaseErrors[0].Phase != tc.phase || !errors.Is(res.PhaseErrors[0].Err, tc.want) {
				t.Errorf("phase errors %v, want %s %v", res.PhaseErrors, tc.phase, tc.want)
			}
			if res.Name != "Half" || len(res.PlayerList) != tc.players || len(res.Rules) != tc.rule || res.Password != tc.password {
				t.Errorf("name %q, %d players, %d rules, password %v", res.Name, len(res.PlayerList), len(res.Rules), res.Password)
			}
		})
	}
}

// Datagrams of another type, junk and duplicates are skipped; each player counts once.
func TestQueryStraysAndDuplicates(t *testing.T) {
	t.Parallel()
	ps := playerReplies(6, 2)
	f := &fake{
		info: [][]byte{infoReply("Busy", "ONS-Torlan", 6, 32)},
		players: [][]byte{
			ps[0], header(typeRules), []byte("junk"), ps[0], infoReply("Late", "x", 1, 1), ps[1], ps[1], ps[2],
		},
	}
	res, tr, err := query(t, f.start(t), protocols.Settings{Players: true}, 2*time.Second)
	if err != nil {
		t.Fatal(err)
	}
	if len(res.PlayerList) != 6 || res.PhaseErrors != nil {
		t.Fatalf("players %+v, phase errors %v", res.PlayerList, res.PhaseErrors)
	}
	for i, p := range res.PlayerList {
		if p.Name != playerName(i) {
			t.Errorf("player %d = %q", i, p.Name)
		}
	}
	ignored := 0
	for _, p := range tr.Packets {
		if p.Note != "" {
			ignored++
		}
	}
	if ignored != 5 {
		t.Errorf("%d datagrams ignored, want 5", ignored)
	}
}

// A server that counts no players is not asked for them; one without players or
// rules wanted gets the info request only.
func TestQueryRequestsOnlyWhatIsNeeded(t *testing.T) {
	t.Parallel()
	empty := &fake{info: [][]byte{infoReply("Empty", "DM-Curse4", 0, 10)}, rules: rulesReplies(6, stockRules...)}
	res, tr, err := query(t, empty.start(t), all, 2*time.Second)
	if err != nil {
		t.Fatal(err)
	}
	if res.PlayerList == nil || len(res.PlayerList) != 0 || empty.asked[typePlayers].Load() != 0 || len(res.Rules) != 6 {
		t.Errorf("players %v (%d requests), rules %d", res.PlayerList, empty.asked[typePlayers].Load(), len(res.Rules))
	}
	if got := phaseNames(tr); got != "[info rules]" {
		t.Errorf("phases %s", got)
	}

	f := &fake{info: [][]byte{infoReply("Full", "DM-Rankin", 3, 10)}, players: playerReplies(3, 3), rules: rulesReplies(6, stockRules...)}
	res, _, err = query(t, f.start(t), protocols.Settings{}, 2*time.Second)
	if err != nil || res.PlayerList != nil || res.Rules != nil || res.Players != protocols.Known(3) {
		t.Errorf("without players and rules: %+v, %v", res, err)
	}
	if f.asked[typePlayers].Load() != 0 || f.asked[typeRules].Load() != 0 {
		t.Error("asked for players or rules")
	}
}

func TestQueryInfoFailures(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name  string
		reply [][]byte
		want  error
		d     time.Duration
	}{
		{"truncated", [][]byte{prototest.VecFile(t, "info_name_overrun")}, wire.ErrTruncated, 2 * time.Second},
		{"cut counts", [][]byte{prototest.VecFile(t, "info_cut_counts")}, wire.ErrTruncated, 2 * time.Second},
		// Only datagrams that answer nothing: wire.Exchange names why the last was skipped.
		{"only strays", [][]byte{prototest.VecFile(t, "not_reply"), prototest.VecFile(t, "wrong_type")}, wire.ErrMalformed, 300 * time.Millisecond},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			addr := prototest.UDP(t, func([]byte) [][]byte { return tc.reply })
			res, tr, err := query(t, addr, all, tc.d)
			if !errors.Is(err, tc.want) || res != nil {
				t.Errorf("err = %v, result %+v, want %v", err, res, tc.want)
			}
			if len(tr.Phases) != 1 || tr.Phases[0].Name != "info" || !errors.Is(tr.Phases[0].Err, tc.want) {
				t.Errorf("phases %+v", tr.Phases)
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
