package ase

import (
	"errors"
	"fmt"
	"maps"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/gameserver-exporter/gameserver_exporter/protocols"
	"github.com/gameserver-exporter/gameserver_exporter/protocols/prototest"
	"github.com/gameserver-exporter/gameserver_exporter/protocols/wire"
)

// TestDecodeVectors decodes each testdata/NAME.vec as its NAME.expected.json
// says: the error's reason, or the game type and the Result's ProbeLine, its
// rules and players. ASE counts players and flags no bots (Players is the count
// as sent, Bots unknown, no listed player marked).
func TestDecodeVectors(t *testing.T) {
	prototest.VecVectors(t, func(t *testing.T, b []byte, w struct {
		prototest.HexVector
		Line    string
		Rules   []protocols.KV
		Players []protocols.Player
	}) {
		s, err := decode(b, wire.UTF8)
		if w.Refused(t, b, err) {
			return
		}
		if got := s.GameType + " " + prototest.ProbeLine(s.Result(true, true), nil, nil); got != w.Line {
			t.Errorf("got  %s\nwant %s", got, w.Line)
		}
		if strings.HasSuffix(t.Name(), "/basic") {
			prototest.CheckBots(t, s.Result(true, true), 3, prototest.Unknown, true)
		}
		if !reflect.DeepEqual(s.Rules, w.Rules) || !reflect.DeepEqual(s.PlayerList, w.Players) {
			t.Errorf("rules = %v, players = %+v", s.Rules, s.PlayerList)
		}
	})
}

// TestResultInfo: the header's values are info (the rows pin their count).
func TestResultInfo(t *testing.T) {
	s, err := decode(prototest.VecFile(t, "rules_cut"), wire.UTF8)
	prototest.NoError(t, err)
	if r := s.Result(true, true); r.Info[2] != (protocols.KV{Key: "servername", Value: "RulesCut"}) {
		t.Errorf("info = %+v", r.Info)
	}
}

// headerJSON are the keys of GameQ's result that are not server rules.
var headerJSON = map[string]bool{
	"dedicated": true, "gamename": true, "gametype": true, "map": true, "max_players": true,
	"num_players": true, "password": true, "players": true, "port": true, "servername": true, "version": true,
}

// TestDecodeFixtures decodes every real capture and compares it with GameQ's
// reading, as text: counts in decimal ("" when unknown), rules as a map.
func TestDecodeFixtures(t *testing.T) {
	prototest.FixtureVectors(t, "ase", func(t *testing.T, _ string, fx struct {
		Fixtures []string
		Expected map[string]map[string]any
	}) {
		if len(fx.Fixtures) != 1 || len(fx.Expected) != 1 {
			t.Fatalf("unexpected fixture layout: %+v", fx)
		}
		s, err := decode(prototest.Fixture(t, "ase", fx.Fixtures[0]), wire.UTF8)
		if err != nil || s.RulesErr != nil || s.PlayersErr != nil || s.Password != protocols.FlagFalse {
			t.Fatalf("%v; rules %v, players %v, password %v", err, s.RulesErr, s.PlayersErr, s.Password)
		}
		want, got := map[string]any{}, map[string]any{
			"servername": s.Name, "gamename": s.Game, "gametype": s.GameType, "map": s.Map,
			"version": s.Version, "port": s.Port, "num_players": fmtCount(s.Players),
			"max_players": fmtCount(s.MaxPlayers), "password": prototest.InfoOf(s.Result(false, false))["password"],
		}
		var players []any
		for _, e := range fx.Expected {
			for k, v := range e {
				switch {
				case k == "players":
					players = v.([]any)
				case !headerJSON[k] && !strings.HasPrefix(k, "gq_"):
					want["rule "+k] = v
				case headerJSON[k] && k != "dedicated":
					want[k] = v
				}
			}
		}
		for _, kv := range s.Rules {
			got["rule "+kv.Key] = kv.Value
		}
		if len(players) != len(s.PlayerList) {
			t.Fatalf("%d players, want %d", len(s.PlayerList), len(players))
		}
		for i, wp := range players {
			w := wp.(map[string]any)
			p := s.PlayerList[i]
			// GameQ reports the very last time field as false although the
			// datagram ends with its 0x01 (empty) string: read it as empty.
			known := w["time"] != "" && w["time"] != false
			want[fmt.Sprint("player ", i)] = fmt.Sprintf("%q %q %q %q %v", w["name"], w["team"], w["score"], w["ping"], known)
			got[fmt.Sprint("player ", i)] = fmt.Sprintf("%q %q %q %q %v", p.Name, p.Team, fmtCount(p.Score), fmtCount(p.Ping), p.DurationKnown)
		}
		if !reflect.DeepEqual(got, want) {
			t.Errorf("decoded\n%v\nwant\n%v", got, want)
		}
	})
}

// fmtCount renders a count the way the fixtures store it: decimal text, "" if unknown.
func fmtCount(c protocols.Count) string {
	if !c.Known {
		return ""
	}
	return strconv.FormatInt(c.Value, 10)
}

// TestTooManyPlayers: a reply with more records than the cap fails the players
// phase and does not report the player count it declared.
func TestTooManyPlayers(t *testing.T) {
	b := []byte("EYE1")
	for _, f := range []string{"mta", "22003", "big", "dm", "map", "1.0", "0", "10000", "10000"} {
		b = append(b, byte(len(f)+1))
		b = append(b, f...)
	}
	b = append(b, 1) // no rules
	for range maxPlayers + 1 {
		b = append(b, 0x01, 0x02, 'a') // flags: name; "a"
	}
	s, err := decode(b, wire.UTF8)
	prototest.NoError(t, err)
	if !errors.Is(s.PlayersErr, wire.ErrTooLarge) {
		t.Fatalf("players error %v, want too_large", s.PlayersErr)
	}
	res := s.Result(true, false)
	if res.Players.Known {
		t.Errorf("reports %d players after too many records", res.Players.Value)
	}
	if len(res.PhaseErrors) != 1 || res.PhaseErrors[0].Phase != "players" {
		t.Errorf("phase errors %v", res.PhaseErrors)
	}
}

// seeds are the own vectors, the real captures when ../shared is present and a
// split reply.
func seeds(f *testing.F) [][]byte {
	out := slices.Collect(maps.Values(prototest.AllVecs(f)))
	out = append(out, prototest.SharedFiles("fixtures/ase/*.bin")...)
	return append(out, split(bigReply(60), "idid")...)
}

func FuzzDecode(f *testing.F) {
	prototest.FuzzResults(f, seeds(f), func(t *testing.T, b []byte) *protocols.Result {
		s, err := decode(b, wire.UTF8)
		if err != nil {
			return nil
		}
		r := s.Result(true, true)
		if len(r.PlayerList) > maxPlayers {
			t.Fatalf("%d players past the cap", len(r.PlayerList))
		}
		return r
	})
}

// FuzzFragments feeds a datagram, split at an arbitrary point into two, through the
// fragment classifier and assembler.
func FuzzFragments(f *testing.F) {
	for _, b := range seeds(f) {
		f.Add(b, uint16(len(b)/2))
	}
	f.Fuzz(func(t *testing.T, b []byte, cut uint16) {
		c := int(cut) % (len(b) + 1)
		var a assembler
		for _, d := range [][]byte{b[:c], b[c:], b} {
			fr, single, err := parseFragment(d)
			if err != nil || single {
				continue
			}
			a.add(fr)
			if a.have > maxFragments {
				t.Fatalf("%d fragments stored", a.have)
			}
		}
		if m := a.missing(); a.complete() && len(m) != 0 {
			t.Fatalf("complete yet missing %v", m)
		}
		decode(a.body(), wire.UTF8)
	})
}

func BenchmarkDecode(b *testing.B) {
	// about the size of MTA's 203-player capture
	prototest.DecodeBench(b, bigReply(200), func(v []byte) error { _, err := decode(v, wire.UTF8); return err })
}
