package unreal2

import (
	"fmt"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/gameserver-exporter/gameserver_exporter/protocols"
	"github.com/gameserver-exporter/gameserver_exporter/protocols/prototest"
	"github.com/gameserver-exporter/gameserver_exporter/protocols/wire"
)

// wantInfo mirrors info with exported fields for the .expected.json files.
type wantInfo struct {
	Version     uint32
	ServerID    int32 `json:"server_id"`
	IP          string
	GamePort    int32 `json:"game_port"`
	QueryPort   int32 `json:"query_port"`
	Name, Map   string
	Game        string
	Players     int32
	Max         int32
	Layout      string
	WaveCurrent int32 `json:"wave_current"`
	WaveTotal   int32 `json:"wave_total"`
	Ping, Flags int32
	Skill       string
	Trailing    int
}

func (w wantInfo) info() info {
	return info{
		version: w.Version, serverID: w.ServerID, ip: w.IP, gamePort: w.GamePort, queryPort: w.QueryPort,
		name: w.Name, mapName: w.Map, game: w.Game, numPlayers: w.Players, maxPlayer: w.Max,
		layout: w.Layout, waveCurrent: w.WaveCurrent, waveTotal: w.WaveTotal, ping: w.Ping, flags: w.Flags,
		skill: w.Skill, trailing: w.Trailing,
	}
}

type wantPlayer struct {
	Num         int32
	Name        string
	Ping, Score int32
	StatsID     int32 `json:"stats_id"`
	Team        string
}

type expected struct {
	Kind    string // info, rules, players
	Skip    bool
	Error   string
	Info    *wantInfo
	Rules   [][2]string
	Players []wantPlayer
	Result  *prototest.ExpectedResult
	// PlayerList is the Result's list built from Players.
	PlayerList []struct {
		Name        string
		Score, Ping int64
		Team        string
	} `json:"player_list"`
}

// decodeVec runs the decoder the vector's kind names on it, the way the querier
// does: the header first, then the body.
func decodeVec(b []byte, e expected) (in *info, kv []protocols.KV, ps []player, skip, err error) {
	kind := map[string]byte{"info": typeInfo, "rules": typeRules, "players": typePlayers}[e.Kind]
	v, body, skip := splitReply(b, kind)
	if skip != nil {
		return nil, nil, nil, skip, nil
	}
	switch e.Kind {
	case "info":
		in, err = decodeInfo(v, body)
	case "rules":
		kv, err = decodeRules(nil, body)
	case "players":
		ps, err = decodePlayers(nil, v, body)
	}
	return in, kv, ps, nil, err
}

// TestVectors decodes every hand-built vector in testdata/ (see its README.md).
func TestVectors(t *testing.T) {
	for _, name := range prototest.Names(t, ".expected.json") {
		t.Run(name, func(t *testing.T) {
			e := prototest.ReadJSON[expected](t, filepath.Join("testdata", name+".expected.json"))
			in, kv, ps, skip, err := decodeVec(prototest.VecFile(t, name), e)
			if (skip != nil) != e.Skip {
				t.Fatalf("skip = %v, want %v", skip, e.Skip)
			}
			if e.Skip {
				if wire.Reason(skip) != "malformed" {
					t.Errorf("skip reason %q", wire.Reason(skip))
				}
				return
			}
			if got := wire.Reason(err); got != e.Error {
				t.Fatalf("error %v (reason %q), want reason %q", err, got, e.Error)
			}
			if e.Info != nil {
				if in == nil || !reflect.DeepEqual(*in, e.Info.info()) {
					t.Errorf("info\n got %+v\nwant %+v", in, e.Info.info())
				}
			}
			if e.Kind == "rules" {
				var want []protocols.KV
				for _, w := range e.Rules {
					want = append(want, protocols.KV{Key: w[0], Value: w[1]})
				}
				if !slices.Equal(kv, want) {
					t.Errorf("rules %q, want %q", kv, want)
				}
			}
			if e.Kind == "players" {
				checkPlayers(t, ps, e.Players)
			}
			if e.Result != nil || e.PlayerList != nil {
				checkResult(t, in, kv, ps, err, e)
			}
		})
	}
}

func checkPlayers(t *testing.T, ps []player, want []wantPlayer) {
	t.Helper()
	if len(ps) != len(want) {
		t.Fatalf("%d players %+v, want %d", len(ps), ps, len(want))
	}
	for i, w := range want {
		got := ps[i]
		if got != (player{num: w.Num, name: w.Name, ping: w.Ping, score: w.Score, statsID: w.StatsID, team: w.Team}) {
			t.Errorf("player %d = %+v, want %+v", i, got, w)
		}
	}
}

// checkResult builds the Result the querier would from what was decoded.
func checkResult(t *testing.T, in *info, kv []protocols.KV, ps []player, err error, e expected) {
	t.Helper()
	st := &status{in: in}
	if in == nil {
		version := uint32(0x80)
		if e.Kind == "players" && strings.Contains(t.Name(), "xmp") {
			version = versionXMP
		}
		st.in = &info{version: version}
	}
	res := st.result()
	if e.Kind == "rules" {
		addRules(res, kv, err == nil)
	}
	if e.Kind == "players" {
		st.addPlayers(res, ps)
		if len(res.PlayerList) != len(e.PlayerList) {
			t.Fatalf("player list %+v, want %d entries", res.PlayerList, len(e.PlayerList))
		}
		for i, w := range e.PlayerList {
			got := res.PlayerList[i]
			if got.Name != w.Name || got.Team != w.Team || got.Score != protocols.Known(w.Score) || got.Ping != protocols.Known(w.Ping) || got.Bot {
				t.Errorf("player list %d = %+v, want %+v", i, got, w)
			}
		}
	}
	if e.Result != nil {
		prototest.CheckResult(t, res, *e.Result)
	}
	prototest.CheckUTF8(t, res)
}

// TestStrings covers the string rules one by one: testdata/strings.json holds
// each case's bytes (ParseHex's format), the text read and the bytes left. The
// engine's 8-bit strings are the Windows code page: 0x80-0x9F are marks.
func TestStrings(t *testing.T) {
	for _, tc := range prototest.ReadJSON[[]struct {
		Name, In, Want string
		Left           int
	}](t, "testdata/strings.json") {
		t.Run(tc.Name, func(t *testing.T) {
			b, err := prototest.ParseHex(tc.In)
			prototest.NoError(t, err)
			r := wire.NewReader(b)
			got := readString(&r, "s")
			prototest.NoError(t, r.Err())
			if got != tc.Want || r.Len() != tc.Left {
				t.Errorf("got %q with %d left, want %q with %d", got, r.Len(), tc.Want, tc.Left)
			}
		})
	}
	for _, b := range [][]byte{{}, {0x05, 'a'}, {0x82, 'a', 0, 'b'}, {0x81, 0x01, 'a'}} {
		r := wire.NewReader(b)
		readString(&r, "s")
		if wire.Reason(r.Err()) != "truncated" {
			t.Errorf("% x: err %v, want truncated", b, r.Err())
		}
	}
}

// TestRulesCap stops at maxRulePairs.
func TestRulesCap(t *testing.T) {
	var kv []protocols.KV
	body := []byte{0x02, 'k', 0, 0x02, 'v', 0}
	var err error
	for range maxRulePairs + 1 {
		if kv, err = decodeRules(kv, body); err != nil {
			break
		}
	}
	if len(kv) != maxRulePairs || wire.Reason(err) != "too_large" {
		t.Errorf("%d rules, err %v", len(kv), err)
	}
}

// FuzzDecode runs every decoder on one datagram, as the querier would for each
// reply type, seeded with the vectors in testdata/ and the fakes' replies.
func FuzzDecode(f *testing.F) {
	for _, b := range prototest.AllVecs(f) {
		f.Add(b)
	}
	f.Add(infoReply("Seed", "DM-Seed", 3, 8))
	for _, b := range playerReplies(5, 5) {
		f.Add(b)
	}
	for _, b := range rulesReplies(6, stockRules...) {
		f.Add(b)
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		valid := func(what, s string) {
			if !utf8.ValidString(s) {
				t.Fatalf("%s: invalid UTF-8 %q", what, s)
			}
		}
		if v, body, err := splitReply(b, typeInfo); err == nil {
			if in, err := decodeInfo(v, body); err == nil {
				st := &status{in: in}
				for _, kv := range st.infoKV() {
					valid(kv.Key, kv.Value)
				}
				if in.trailing < 0 || in.trailing > len(body) {
					t.Fatalf("trailing %d of %d", in.trailing, len(body))
				}
			}
		}
		if _, body, err := splitReply(b, typeRules); err == nil {
			kv, _ := decodeRules(nil, body)
			if len(kv) > maxRulePairs {
				t.Fatalf("%d rules past the cap", len(kv))
			}
			for _, p := range kv {
				valid("rule key", p.Key)
				valid("rule value", p.Value)
			}
		}
		if v, body, err := splitReply(b, typePlayers); err == nil {
			for _, version := range []uint32{v, versionXMP} {
				ps, _ := decodePlayers(nil, version, body)
				if len(ps) > maxPlayerEntries {
					t.Fatalf("%d players past the cap", len(ps))
				}
				for _, p := range ps {
					valid("player name", p.name)
					valid("player team", p.team)
				}
			}
		}
	})
}

func BenchmarkDecodeInfo(b *testing.B) {
	prototest.DecodeBench(b, prototest.VecFile(b, "info_ut2004"), func(reply []byte) error {
		v, body, err := splitReply(reply, typeInfo)
		if err == nil {
			_, err = decodeInfo(v, body)
		}
		return err
	})
}

// BenchmarkDecodePlayers decodes a full 32-player list in one datagram.
func BenchmarkDecodePlayers(b *testing.B) {
	prototest.DecodeBench(b, playerReplies(32, 32)[0], func(reply []byte) error {
		v, body, _ := splitReply(reply, typePlayers)
		if ps, err := decodePlayers(nil, v, body); err != nil || len(ps) != 32 {
			return fmt.Errorf("%d players: %v", len(ps), err)
		}
		return nil
	})
}
