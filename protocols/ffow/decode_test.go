package ffow

import (
	"bytes"
	"maps"
	"slices"
	"testing"
	"unicode/utf8"

	"github.com/gameserver-exporter/gameserver_exporter/protocols"
	"github.com/gameserver-exporter/gameserver_exporter/protocols/prototest"
	"github.com/gameserver-exporter/gameserver_exporter/protocols/wire"
)

func vec(t testing.TB, name string) []byte { return prototest.HexFile(t, name+".hex") }

func TestRequests(t *testing.T) {
	// qstat's fl.c FL_INFO and FL_GETCHALLENGE; GameQ's info packet.
	for got, want := range map[string]string{
		string(infoRequest):         "ffffffff 46 4c5351",
		string(getChallengeRequest): "ffffffff 57",
	} {
		w, _ := prototest.ParseHex(want)
		if got != string(w) {
			t.Errorf("request % x, want %s", got, want)
		}
	}
}

// TestDecodeInfo: the LSQ info has no bot count and the player record no bot
// mark (qstat, gamedig and GameQ read none): Players is the count as sent, Bots
// stays unknown (and TestDecodePlayers marks no one).
func TestDecodeInfo(t *testing.T) {
	in, err := decodeInfo(vec(t, "info"))
	prototest.NoError(t, err)
	res := in.result()
	if res.Name != "FFOW Test Server" || res.Map != "CQ_Harbor" || res.Game != "ffow" || res.Version != "1.0.3" ||
		res.Players != protocols.Known(5) || res.MaxPlayers != protocols.Known(32) || res.Password != protocols.FlagTrue || res.Bots.Known {
		t.Errorf("%+v", res)
	}
	want := map[string]string{"protocol": "2", "gamemode": "Conquest", "description": "Frontlines: Fuel of War", "game_port": "5476",
		"dedicated": "d", "os": "w", "anticheat": "true", "frame_rate": "60", "round": "2", "max_rounds": "5", "time_left": "600"}
	if len(res.Info) != len(want) || !maps.Equal(prototest.InfoOf(res), want) {
		t.Errorf("info %v, want %v", res.Info, want)
	}

	in, err = decodeInfo(vec(t, "info_v1"))
	prototest.NoError(t, err)
	res = in.result()
	if in.Version != 1 || res.Name != "Café" || res.Players != protocols.Known(0) || res.MaxPlayers != protocols.Known(16) || res.Password != protocols.FlagFalse {
		t.Errorf("v1: %+v", res)
	}
	prototest.CheckUTF8(t, res)
}

func TestDecodePlayers(t *testing.T) {
	ps, err := decodePlayers(vec(t, "players"))
	prototest.NoError(t, err)
	list := playerList(ps)
	want := []protocols.Player{
		{Name: "Sgt. Kaos", Score: protocols.Known(12), Ping: protocols.Known(50), Duration: 900, DurationKnown: true, Team: "1"},
		{Name: "Pró", Score: protocols.Known(-2), Ping: protocols.Known(150), Duration: 120, DurationKnown: true, Team: "2"},
	}
	if !slices.Equal(list, want) {
		t.Errorf("players %+v, want %+v", list, want)
	}
	if ps[0].Profile != 0x12345 {
		t.Errorf("profile id %x", ps[0].Profile)
	}
}

func TestDecodeRules(t *testing.T) {
	rules, err := decodeRules(vec(t, "rules"))
	prototest.NoError(t, err)
	want := []protocols.KV{{Key: "Map:0", Value: "CQ_Harbor"}, {Key: "Map:1", Value: "SK_Village"}, {Key: "FriendlyFire", Value: "1"}}
	if !slices.Equal(rules, want) {
		t.Errorf("rules %v, want %v", rules, want)
	}
}

func TestDecodeErrors(t *testing.T) {
	for _, c := range []struct {
		file   string
		decode func([]byte) error
		want   string
	}{
		{"err_info_cut", infoErr, "truncated"},
		{"err_info_type", infoErr, "malformed"},
		{"err_header", infoErr, "malformed"},
		{"challenge", infoErr, "malformed"},
		{"err_players_cut", playersErr, "truncated"},
		{"err_players_count_lies", playersErr, "truncated"},
		{"info", playersErr, "malformed"},
		{"err_rules_cut", rulesErr, "truncated"},
		{"err_rules_too_many", rulesErr, "too_large"},
		{"players", rulesErr, "malformed"},
	} {
		if err := c.decode(vec(t, c.file)); wire.Reason(err) != c.want {
			t.Errorf("%s: %v, want %s", c.file, err, c.want)
		}
	}
	for _, short := range [][]byte{nil, {0xff, 0xff, 0xff}} {
		if err := infoErr(short); wire.Reason(err) != "truncated" {
			t.Errorf("% x: %v", short, err)
		}
	}
}

func infoErr(b []byte) error    { _, err := decodeInfo(b); return err }
func playersErr(b []byte) error { _, err := decodePlayers(b); return err }
func rulesErr(b []byte) error   { _, err := decodeRules(b); return err }

// TestDecodeWindows1252: FFOW is a Windows game: a name that is not UTF-8 is
// Windows-1252, its 0x80-0x9F marks included.
func TestDecodeWindows1252(t *testing.T) {
	b := bytes.Replace(vec(t, "info"), []byte("FFOW Test Server"), prototest.MafiaName, 1)
	in, err := decodeInfo(b)
	prototest.NoError(t, err)
	if res := in.result(); res.Name != prototest.MafiaNameText {
		t.Errorf("name %q, want %q", res.Name, prototest.MafiaNameText)
	}
}

// FuzzDecode: no reply panics a decoder, every error names one reason, and what
// decodes has UTF-8 strings.
func FuzzDecode(f *testing.F) {
	prototest.SeedHex(f)
	f.Fuzz(func(t *testing.T, b []byte) {
		if in, err := decodeInfo(b); err != nil {
			prototest.CheckReason(t, err)
		} else {
			prototest.CheckUTF8(t, in.result())
		}
		if ps, err := decodePlayers(b); err != nil {
			prototest.CheckReason(t, err)
		} else {
			for _, p := range playerList(ps) {
				if !utf8.ValidString(p.Name) || p.Duration < 0 {
					t.Fatalf("%+v", p)
				}
			}
		}
		if rs, err := decodeRules(b); err != nil {
			prototest.CheckReason(t, err)
		} else if len(rs) > 4096 {
			t.Fatalf("%d rules", len(rs))
		}
	})
}

func BenchmarkDecodeInfo(b *testing.B) {
	prototest.DecodeBench(b, vec(b, "info"), prototest.Decoded(decodeInfo, (*info).result).Err)
}
