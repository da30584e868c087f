package skycoop

import (
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/gameserver-exporter/gameserver_exporter/protocols"
	"github.com/gameserver-exporter/gameserver_exporter/protocols/prototest"
	"github.com/gameserver-exporter/gameserver_exporter/protocols/wire"
)

// want is a testdata/NAME.expected.json: what NAME.hex decodes to.
type want struct {
	prototest.HexVector
	Format        string
	Name, Version string
	Players       int64
	MaxPlayers    int64    `json:"max_players"`
	PlayerList    []string `json:"player_list"`  // null: no PlayerList expected
	ConfigError   string   `json:"config_error"` // the config's reason: a players phase error
	Info          map[string]string
}

func wantOf(t testing.TB, name string) want {
	return prototest.ReadJSON[want](t, filepath.Join("testdata", name+".expected.json"))
}

func TestDecodeVectors(t *testing.T) {
	prototest.HexVectors(t, func(t *testing.T, b []byte, w want) {
		st, err := decodeReply(b, defaultPacketID)
		if w.Refused(t, b, err) {
			return
		}
		if st.Format != w.Format || wire.Reason(st.ConfigErr) != w.ConfigError && !(st.ConfigErr == nil && w.ConfigError == "") {
			t.Errorf("format %q, config error %v; want %q, %s", st.Format, st.ConfigErr, w.Format, w.ConfigError)
		}
		checkResult(t, st.Result(true), w)
		if res := st.Result(false); res.PlayerList != nil || res.PhaseErrors != nil {
			t.Errorf("without players: list %v, phase errors %v", res.PlayerList, res.PhaseErrors)
		}
	})
}

func checkResult(t *testing.T, res *protocols.Result, w want) {
	t.Helper()
	if res.Game != "The Long Dark" || res.Name != w.Name || res.Version != w.Version || res.MaxPlayers != protocols.Known(w.MaxPlayers) ||
		res.Map != "" || res.Password != protocols.FlagUnknown {
		t.Errorf("result %+v, want %+v", res, w)
	}
	prototest.CheckBots(t, res, w.Players, prototest.Unknown, true) // clients counted, RCON sessions too; no bots
	if names := prototest.ListNames(res); !slices.Equal(names, w.PlayerList) || (res.PlayerList == nil) != (w.PlayerList == nil) {
		t.Errorf("player names = %q, want %q", names, w.PlayerList)
	}
	if got := len(res.PhaseErrors) == 1 && res.PhaseErrors[0].Phase == "players"; got != (w.ConfigError != "") || len(res.PhaseErrors) > 1 {
		t.Errorf("phase errors = %v, want a players error: %v", res.PhaseErrors, w.ConfigError != "")
	}
	prototest.CheckInfoHas(t, res, w.Info)
}

func TestDecodeEdgeInputs(t *testing.T) {
	for _, b := range [][]byte{nil, {0x93}, {0x93, 0, 0}} {
		if _, err := decodeReply(b, defaultPacketID); !errors.Is(err, wire.ErrTruncated) {
			t.Errorf("Decode(% X) = %v, want ErrTruncated", b, err)
		}
	}
	if _, err := decodeReply(request(), defaultPacketID); !errors.Is(err, wire.ErrMismatch) {
		t.Errorf("echoed request: %v, want ErrMismatch", err)
	}
	// Every prefix of a reply fails cleanly; once the counts are in, they are kept.
	full := prototest.HexFile(t, "spec_worked_srv.hex")
	for n := range len(full) {
		st, err := decodeReply(full[:n], defaultPacketID)
		switch {
		case n < 32 && err == nil:
			t.Errorf("prefix %d decoded before the counts were complete", n)
		case n >= 32 && (err != nil || st.ConfigErr == nil || st.Players != 1 || st.MaxPlayers != 4):
			t.Errorf("prefix %d: %v, %+v", n, err, st)
		}
	}
}

// TestParseConfig: each config string gives players/experience/pvp/other keys
// (a nil list printed as "nil"), or the reason it is refused with.
func TestParseConfig(t *testing.T) {
	for in, want := range map[string]string{
		"{'players':['Alice','Bob'],'experience':'Voyageur','pvp':'True'}": `["Alice" "Bob"]/Voyageur/True/[]`,
		`{"players":["A"],"experience":"Stalker","pvp":"False"}`:           `["A"]/Stalker/False/[]`,
		" { 'players' : [ 'A' , 'B' , ] , 'pvp' : 'True' , } ":             `["A" "B"]//True/[]`,
		"{'players':[],'mode':3,'tags':['x','y'],'on':true}":               `[]///[{mode 3} {tags x,y} {on true}]`,
		"{}":                `nil///[]`,
		"":                  "truncated",
		"{":                 "truncated",
		"{'players':['A'":   "truncated",
		"{'players':['A":    "truncated",
		"{'a' 'b'}":         "malformed",
		"{'a':'b'} x":       "malformed",
		"['a']":             "malformed",
		"{'a':}":            "malformed",
		"{'a':'b' 'c':'d'}": "malformed",
		"Players:\nAlice":   "malformed",
	} {
		c, err := parseConfig(in)
		got := wire.Reason(err)
		if err == nil {
			players := fmt.Sprintf("%q", c.Players)
			if c.Players == nil {
				players = "nil"
			}
			got = fmt.Sprintf("%s/%s/%s/%v", players, c.Experience, c.PVP, c.Other)
		}
		if got != want {
			t.Errorf("%q: %s, want %s", in, got, want)
		}
	}
	many := "{'players':[" + strings.Repeat("'p',", 3000) + "]}"
	if c, err := parseConfig(many); err != nil || len(c.Players) != maxConfigPlayers {
		t.Errorf("3000 names: %d kept, %v", len(c.Players), err)
	}
}

// TestQuirks pins the quirks of spec §3-§6 and the mistakes of the wiki's
// reference client that the vector tables above do not show by themselves.
func TestQuirks(t *testing.T) {
	t.Run("name_length_counts_utf16_bytes", func(t *testing.T) {
		if n := int(prototest.HexFile(t, "rcon_counted.hex")[4]); n != 2*len([]rune("Zone de survie é")) {
			t.Errorf("vector name length %d", n)
		}
	})
	t.Run("wiki_client_reads_version_length_as_bytes", func(t *testing.T) {
		// The wiki's C# example does Encoding.UTF8.GetString(data, i, len): with a
		// non-ASCII version it lands one byte short and misreads every later field.
		b := prototest.HexFile(t, "version_nonascii_aligned.hex")
		if wikiPlayers := int32(binary.LittleEndian.Uint32(b[14+9:])); wikiPlayers == 1 { // version bytes start at 14
			t.Errorf("the wiki's reading also gives 1 player")
		}
	})
	t.Run("config_is_single_quoted_not_json", func(t *testing.T) {
		st, err := decodeReply(prototest.HexFile(t, "spec_worked_srv.hex"), defaultPacketID)
		if err != nil || json.Valid([]byte(st.ConfigRaw)) {
			t.Errorf("config %q is valid JSON (%v)", st.ConfigRaw, err)
		}
	})
	t.Run("packet_id_other_than_147_configurable", func(t *testing.T) {
		if st, err := decodeReply(prototest.HexFile(t, "wrong_packet_id.hex"), 146); err != nil || st.Name != "Srv" || st.Players != 1 {
			t.Errorf("id 146 configured: %+v, %v", st, err)
		}
	})
}

func BenchmarkDecode(b *testing.B) {
	prototest.DecodeBench(b, prototest.HexFile(b, "rcon_counted.hex"), func(vec []byte) error {
		st, err := decodeReply(vec, defaultPacketID)
		if err == nil {
			st.Result(true)
		}
		return err
	})
}

// FuzzDecode: the decoded counts are not negative, the config's list within
// its cap (FuzzResults: the Result is UTF-8).
func FuzzDecode(f *testing.F) {
	prototest.FuzzResults(f, prototest.HexFiles(f), func(t *testing.T, b []byte) *protocols.Result {
		st, err := decodeReply(b, defaultPacketID)
		if err != nil {
			return nil
		}
		if st.Players < 0 || st.MaxPlayers < 0 || len(st.Config.Players) > maxConfigPlayers {
			t.Fatalf("bad counts %+v", st)
		}
		return st.Result(true)
	})
}

func FuzzParseConfig(f *testing.F) {
	for _, s := range []string{
		"{'players':['Alice','Bob'],'experience':'Voyageur','pvp':'True'}",
		`{"players":["A"],"experience":"Stalker","pvp":"False"}`,
		"{'players':[],'mode':3,'tags':['x','y'],}",
		"Players:\nAlice", "{'a':", "{'players':['a",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		c, err := parseConfig(s)
		if err == nil && len(c.Players) > maxConfigPlayers {
			t.Fatalf("%d players kept", len(c.Players))
		}
	})
}
