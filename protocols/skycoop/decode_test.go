package skycoop

import (
	"encoding/binary"
	"encoding/json"
	"errors"
	"slices"
	"strings"
	"testing"

	"github.com/gameserver-exporter/gameserver_exporter/protocols"
	"github.com/gameserver-exporter/gameserver_exporter/protocols/prototest"
	"github.com/gameserver-exporter/gameserver_exporter/protocols/wire"
)

// loadHex reads a hand-built vector (see prototest.ParseHex).
func loadHex(t testing.TB, name string) []byte { return prototest.HexFile(t, name) }

type want struct {
	format     string
	name       string
	version    string
	players    int64
	max        int64
	list       []string // nil: no PlayerList expected
	configErr  error
	info       map[string]string
	phaseError bool
}

var goodVectors = []struct {
	file string
	size int
	want want
}{
	{"spec_worked_srv.hex", 152, want{
		format: formatCurrent, name: "Srv", version: "0.13.2", players: 1, max: 4, list: []string{"Alice"},
		info: map[string]string{"experience": "Voyageur", "pvp": "True", "players_listed": "1"},
	}},
	{"spec_fixture_empty_name.hex", 130, want{
		format: formatCurrent, version: "0.13.2", players: 0, max: 4, list: []string{},
		info: map[string]string{"experience": "Stalker", "pvp": "True", "players_listed": "0"},
	}},
	{"rcon_counted.hex", 196, want{ // the count includes RCON sessions: 3 counted, 2 listed
		format: formatCurrent, name: "Zone de survie é", version: "0.13.1", players: 3, max: 8,
		list: []string{"Alice", "Bob"},
		info: map[string]string{"experience": "Interloper", "pvp": "False", "players_listed": "2", "players": "3"},
	}},
	{"raw_names.hex", 212, want{ // names lose apostrophes, keep backslash and quote
		format: formatCurrent, name: "Raw", version: "0.12.0", players: 4, max: 10,
		list: []string{`C:\Bob`, `Say "hi"`, "OBrien", "a,b]:{"},
		info: map[string]string{"experience": "Pilgrim", "pvp": "False"},
	}},
	{"surrogates.hex", 158, want{ // UTF-16 surrogates decoded, unpaired ones replaced
		format: formatCurrent, name: "❄ Cabin 🏔 \uFFFD ", version: "0.13.2", players: 0, max: 2, list: []string{},
		info: map[string]string{"experience": "Unknown"},
	}},
	{"version_nonascii_aligned.hex", 146, want{ // the version length counts UTF-16 units, not bytes
		format: formatCurrent, name: "V", version: "0.13.2-é1", players: 1, max: 4, list: []string{"Ann"},
	}},
	{"version_nonascii_split.hex", 159, want{
		format: formatCurrent, name: "V", version: "0.13.2-β", players: 2, max: 4, list: []string{"Ann", "Bo"},
	}},
	{"legacy_0_11_3.hex", 34, want{ // the layout of 0.11.0 to 0.11.5
		format: formatLegacy, version: "0.11.3", players: 2, max: 4,
		info: map[string]string{"format": formatLegacy, "config_bytes": "12"},
	}},
	{"trailing_bytes.hex", 134, want{ // no trailing data in the spec, but tolerated
		format: formatCurrent, name: "T", version: "0.13.2", players: 0, max: 4, list: []string{},
		info: map[string]string{"trailing_bytes": "2"},
	}},
	{"config_truncated.hex", 46, want{ // the counts survive a missing or cut config
		format: formatCurrent, name: "Cut", version: "0.13.2", players: 2, max: 6,
		configErr: wire.ErrTruncated, phaseError: true,
	}},
	{"config_missing.hex", 32, want{
		format: formatCurrent, name: "Cut", version: "0.13.2", players: 2, max: 6,
		configErr: wire.ErrTruncated, phaseError: true,
	}},
	{"config_not_json.hex", 64, want{
		format: formatCurrent, name: "Odd", version: "0.13.2", players: 1, max: 6,
		configErr: wire.ErrMalformed, phaseError: true, info: map[string]string{"config": "Players:\nAlice"},
	}},
}

func TestDecodeVectors(t *testing.T) {
	for _, tc := range goodVectors {
		t.Run(tc.file, func(t *testing.T) {
			b := loadHex(t, tc.file)
			if len(b) != tc.size {
				t.Fatalf("vector is %d bytes, built as %d", len(b), tc.size)
			}
			st, err := decodeReply(b, defaultPacketID)
			if err != nil {
				t.Fatal(err)
			}
			if st.Format != tc.want.format {
				t.Errorf("format = %q, want %q", st.Format, tc.want.format)
			}
			if !errors.Is(st.ConfigErr, tc.want.configErr) || (tc.want.configErr == nil) != (st.ConfigErr == nil) {
				t.Errorf("config error = %v, want %v", st.ConfigErr, tc.want.configErr)
			}
			checkResult(t, st.Result(true), tc.want)
			if res := st.Result(false); res.PlayerList != nil || res.PhaseErrors != nil {
				t.Errorf("without players: list %v, phase errors %v", res.PlayerList, res.PhaseErrors)
			}
		})
	}
}

func checkResult(t *testing.T, res *protocols.Result, w want) {
	t.Helper()
	if res.Game != "The Long Dark" || res.Name != w.name || res.Version != w.version || res.MaxPlayers != protocols.Known(w.max) ||
		res.Map != "" || res.Password != protocols.FlagUnknown {
		t.Errorf("result %+v, want %+v", res, w)
	}
	prototest.CheckBots(t, res, w.players, prototest.Unknown, true) // clients counted, RCON sessions too; no bots
	var names []string
	if res.PlayerList != nil {
		names = []string{}
		for _, p := range res.PlayerList {
			names = append(names, p.Name)
		}
	}
	if !slices.Equal(names, w.list) || (names == nil) != (w.list == nil) {
		t.Errorf("player names = %q, want %q", names, w.list)
	}
	if got := len(res.PhaseErrors) == 1 && res.PhaseErrors[0].Phase == "players"; got != w.phaseError || len(res.PhaseErrors) > 1 {
		t.Errorf("phase errors = %v, want players error: %v", res.PhaseErrors, w.phaseError)
	}
	prototest.CheckInfoHas(t, res, w.info)
}

func TestDecodeBadVectors(t *testing.T) {
	for _, tc := range []struct {
		file    string
		want    error
		mention string
	}{
		{"odd_name_length.hex", wire.ErrMalformed, "server name length 5 at offset 4 is odd"},
		{"name_length_lies.hex", wire.ErrTruncated, "server name length 1000 at offset 4, 6 bytes left"},
		{"name_length_huge.hex", wire.ErrTooLarge, "server name length 2147483647"},
		{"name_length_negative.hex", wire.ErrMalformed, "negative"},
		{"wrong_packet_id.hex", wire.ErrMismatch, "packet id 146"},
		{"players_negative.hex", wire.ErrMalformed, "negative player counts -1/4 at offset 24"},
		{"version_truncated.hex", wire.ErrTruncated, "mod version of 6 characters"},
		{"version_invalid_utf8.hex", wire.ErrMalformed, "invalid UTF-8 at offset 20"},
	} {
		t.Run(tc.file, func(t *testing.T) {
			_, err := decodeReply(loadHex(t, tc.file), defaultPacketID)
			if !errors.Is(err, tc.want) || !strings.Contains(err.Error(), tc.mention) {
				t.Fatalf("err = %v, want %v mentioning %q", err, tc.want, tc.mention)
			}
		})
	}
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
	full := loadHex(t, "spec_worked_srv.hex")
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

func TestParseConfig(t *testing.T) {
	for _, tc := range []struct {
		in      string
		players []string
		exp     string
		pvp     string
		other   []protocols.KV
	}{
		{"{'players':['Alice','Bob'],'experience':'Voyageur','pvp':'True'}", []string{"Alice", "Bob"}, "Voyageur", "True", nil},
		{`{"players":["A"],"experience":"Stalker","pvp":"False"}`, []string{"A"}, "Stalker", "False", nil},
		{" { 'players' : [ 'A' , 'B' , ] , 'pvp' : 'True' , } ", []string{"A", "B"}, "", "True", nil},
		{"{'players':[],'mode':3,'tags':['x','y'],'on':true}", []string{}, "", "",
			[]protocols.KV{{Key: "mode", Value: "3"}, {Key: "tags", Value: "x,y"}, {Key: "on", Value: "true"}}},
		{"{}", nil, "", "", nil},
	} {
		c, err := parseConfig(tc.in)
		if err != nil {
			t.Errorf("%q: %v", tc.in, err)
			continue
		}
		if !slices.Equal(c.Players, tc.players) || (c.Players == nil) != (tc.players == nil) ||
			c.Experience != tc.exp || c.PVP != tc.pvp || !slices.Equal(c.Other, tc.other) {
			t.Errorf("%q: %+v", tc.in, c)
		}
	}
	for _, tc := range []struct {
		in   string
		want error
	}{
		{"", wire.ErrTruncated},
		{"{", wire.ErrTruncated},
		{"{'players':['A'", wire.ErrTruncated},
		{"{'players':['A", wire.ErrTruncated},
		{"{'a' 'b'}", wire.ErrMalformed},
		{"{'a':'b'} x", wire.ErrMalformed},
		{"['a']", wire.ErrMalformed},
		{"{'a':}", wire.ErrMalformed},
		{"{'a':'b' 'c':'d'}", wire.ErrMalformed},
		{"Players:\nAlice", wire.ErrMalformed},
	} {
		if _, err := parseConfig(tc.in); !errors.Is(err, tc.want) {
			t.Errorf("%q: %v, want %v", tc.in, err, tc.want)
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
		if n := int(loadHex(t, "rcon_counted.hex")[4]); n != 2*len([]rune("Zone de survie é")) {
			t.Errorf("vector name length %d", n)
		}
	})
	t.Run("wiki_client_reads_version_length_as_bytes", func(t *testing.T) {
		// The wiki's C# example does Encoding.UTF8.GetString(data, i, len): with a
		// non-ASCII version it lands one byte short and misreads every later field.
		b := loadHex(t, "version_nonascii_aligned.hex")
		if wikiPlayers := int32(binary.LittleEndian.Uint32(b[14+9:])); wikiPlayers == 1 { // version bytes start at 14
			t.Errorf("the wiki's reading also gives 1 player")
		}
	})
	t.Run("config_is_single_quoted_not_json", func(t *testing.T) {
		st, err := decodeReply(loadHex(t, "spec_worked_srv.hex"), defaultPacketID)
		if err != nil || json.Valid([]byte(st.ConfigRaw)) {
			t.Errorf("config %q is valid JSON (%v)", st.ConfigRaw, err)
		}
	})
	t.Run("packet_id_other_than_147_configurable", func(t *testing.T) {
		if st, err := decodeReply(loadHex(t, "wrong_packet_id.hex"), 146); err != nil || st.Name != "Srv" || st.Players != 1 {
			t.Errorf("id 146 configured: %+v, %v", st, err)
		}
	})
}
