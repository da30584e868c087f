package gamespy2

import (
	"errors"
	"os"
	"path/filepath"
	"testing"

	"github.com/gameserver-exporter/gameserver_exporter/protocols"
	gt "github.com/gameserver-exporter/gameserver_exporter/protocols/internal/gamespy/gamespytest"
	"github.com/gameserver-exporter/gameserver_exporter/protocols/prototest"
	"github.com/gameserver-exporter/gameserver_exporter/protocols/wire"
)

// vector reads testdata/<name>.bin, or <name>.info.bin then <name>.players.bin.
func vector(t testing.TB, name string) [][]byte {
	t.Helper()
	if b, err := os.ReadFile(filepath.Join("testdata", name+".bin")); err == nil {
		return [][]byte{b}
	}
	var out [][]byte
	for _, part := range []string{"info", "players"} {
		b, err := os.ReadFile(filepath.Join("testdata", name+"."+part+".bin"))
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, b)
	}
	return out
}

var (
	known = protocols.Known
	r     = gt.R
	s     = gt.S
)

// TestDecodeVectors runs the hand-built vectors of testdata/, written from the spec.
func TestDecodeVectors(t *testing.T) {
	for _, v := range []gt.Vector{
		{
			Name: "halo_like", Head: gt.Head{Name: "Test «Halo»", Map: "bloodgulch", Game: "CTF", Version: "01.00.10.0621",
				Players: known(3), Max: known(16), Password: protocols.FlagTrue},
			// team_ is 0-based into the team table; " :00" (Oddball time) is no score.
			Rows: []gt.Row{r("Alpha", 5, 40, "Red"), r("Béta", -1, 120, "Blue"), {Name: "Gamma", Ping: known(60), Team: "Blue"}},
		},
		{
			Name: "aa_no_count", Head: gt.Head{Name: "RedServer", Map: "Bridge", Game: "armygame", Version: "2.5", Players: known(2), Max: known(26)},
			Rows: []gt.Row{r("Sniper", 10, 55, ""), r("Medic", 0, 70, "")},
		},
		{
			Name: "empty_tables", Head: gt.Head{Name: "Empty", Game: "armedass", Players: known(0), Max: known(20), Password: protocols.FlagFalse},
			Rows: []gt.Row{},
		},
		// team_ 1 is past the one-row team table: kept as sent.
		{Name: "all_in_one", Head: gt.Head{Name: "All", Map: "m", Players: known(1), Max: known(8)}, Rows: []gt.Row{r("Solo", 3, 33, "1")}},
		{
			Name: "bfv_teams", Head: gt.Head{Name: "BFV", Game: "bfvietnam", Players: known(2), Max: known(64)},
			Rows: []gt.Row{r("Nguyen", 4, 90, "NVA"), r("Smith", 2, 80, "US")},
		},
		{Name: "empty_name_counted", Head: gt.Head{Players: known(2)}, Rows: []gt.Row{s("One", 1), s("", 2)}},
		{Name: "cut_row", Err: wire.ErrTruncated, Head: gt.Head{Players: known(2)}, Rows: []gt.Row{r("A", 1, 10, ""), r("B", 2, 20, "")}},
		{Name: "lying_count", Err: wire.ErrTruncated, Head: gt.Head{Name: "Liar"}, Rows: []gt.Row{s("A", 1), s("B", 2)}},
		{Name: "cut_kv", Err: wire.ErrTruncated, Head: gt.Head{Name: "Cut", Map: "dm1", Players: known(4)}, NoList: true},
		{Name: "header_only", Err: wire.ErrTruncated, NoList: true},
		{Name: "bad_type", Err: wire.ErrMalformed, NoResult: true},
		{Name: "too_many_columns", Err: wire.ErrTooLarge, NoResult: true},
		{Name: "too_many_rows", Err: wire.ErrTooLarge, NoResult: true},
	} {
		t.Run(v.Name, func(t *testing.T) {
			res, err := decode(vector(t, v.Name)...)
			gt.CheckVector(t, res, err, v)
		})
	}
}

func TestDecodeReplyShort(t *testing.T) {
	for _, b := range []string{"", "\x00", "\x00COR"} {
		if _, err := decodeReply([]byte(b)); !errors.Is(err, wire.ErrTruncated) {
			t.Errorf("%q: %v", b, err)
		}
	}
}

// TestDecodeFixtures decodes every real capture (the info reply and the player/team
// reply of each server) and asserts GameQ's decoded values.
func TestDecodeFixtures(t *testing.T) {
	reading := gt.Reading{
		Name: gameq, Value: gameq, Game: []string{"gamename", "gametype"}, Version: []string{"gamever"},
		Password: func(s string) protocols.Flag {
			return map[string]protocols.Flag{"0": protocols.FlagFalse, "1": protocols.FlagTrue}[s]
		},
		Score: []string{"score"}, Teams: "teamt", // team_ is 0-based into the team table
	}
	for _, g := range gt.GameQs(t, "gamespy2") {
		t.Run(g.Name, func(t *testing.T) {
			res, err := decode(g.Parts...)
			if err != nil {
				t.Fatal(err)
			}
			gt.CheckGameQ(t, res, g.Want, reading)
		})
	}
}

// gameq turns GameQ's reading of a string (its bytes as Latin-1) into ours: the
// servers are Windows games writing Windows-1252, whose 0x80-0x9F are marks
// (0x99 is ™), where Latin-1 has control characters.
func gameq(s string) string {
	b := make([]byte, 0, len(s))
	for _, r := range s {
		if r > 0xFF {
			return s // not a Latin-1 reading
		}
		b = append(b, byte(r))
	}
	return wire.Windows1252(b)
}

// TestBotsMeaning: GameSpy 2 replies carry no bot count or flag: Players is
// numplayers as sent, else the rows; Bots stays unknown (the vectors' rows pin
// the same for every reply: none is marked).
func TestBotsMeaning(t *testing.T) {
	res, err := decode(vector(t, "aa_no_count")...)
	prototest.NoError(t, err)
	prototest.CheckBots(t, res, 2, prototest.Unknown, true)
}

// FuzzDecode feeds one or more reply datagrams to the decoder.
func FuzzDecode(f *testing.F) {
	gt.Seeds(f, "gamespy2", []string{"*.bin"}, vector(f, "halo_like"), vector(f, "aa_no_count"), vector(f, "empty_tables"))
	f.Fuzz(func(t *testing.T, b []byte) {
		res, err := decode(gt.Split(b)...)
		gt.CheckDecoded(t, res, err, maxRows)
	})
}

func BenchmarkDecode(b *testing.B) {
	v := vector(b, "halo_like")
	prototest.DecodeBench(b, nil, func([]byte) error {
		_, err := decode(v...)
		return err
	})
}
