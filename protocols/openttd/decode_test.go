package openttd

import (
	"bytes"
	"errors"
	"path/filepath"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/gameserver-exporter/gameserver_exporter/protocols"
	"github.com/gameserver-exporter/gameserver_exporter/protocols/prototest"
	"github.com/gameserver-exporter/gameserver_exporter/protocols/wire"
)

type want struct {
	version          uint8
	name, revision   string
	mapName          string
	clientsOn, max   int64
	password         bool
	info             map[string]string
	grfNames         []string
	trailing         int
	gameScriptVer    int32
	ticks            uint64
	companiesOn, cMx uint8
}

var goodVectors = []struct {
	file string
	want want
}{
	{"v6_password_newgrf.hex", want{version: 6, name: "Transport Tycoon Club", revision: "14.1", clientsOn: 3, max: 25, password: true,
		gameScriptVer: -1, companiesOn: 2, cMx: 15, grfNames: []string{"OpenGFX"},
		info: map[string]string{"map_width": "256", "map_height": "512", "landscape": "sub-arctic", "dedicated": "true",
			"game_date": "1951-04-29", "start_date": "1950-01-01", "spectators_on": "1", "spectators_max": "5", "newgrfs": "1", "password": "true"}}},
	{"v7_ticks_gamescript.hex", want{version: 7, name: "Große Straßen", revision: "15.0-beta1", clientsOn: 12, max: 12,
		gameScriptVer: 3, ticks: 123456789012, companiesOn: 8, cMx: 8, grfNames: []string{"Trains", "Café ☃"},
		info: map[string]string{"landscape": "toyland", "dedicated": "false", "game_date": "1999-01-01", "start_date": "1998-01-01",
			"gamescript_name": "CityGrowth", "gamescript_version": "3", "ticks_playing": "123456789012", "newgrfs": "2", "spectators_on": "4"}}},
	{"v5_language_map.hex", want{version: 5, name: "Old Server", revision: "1.10.3", mapName: "Random Map", clientsOn: 1, max: 10,
		gameScriptVer: -1, companiesOn: 1, cMx: 8, grfNames: []string{""},
		info: map[string]string{"language": "2", "landscape": "sub-tropical", "map_width": "128", "newgrfs": "1"}}},
	{"v4_no_gamescript.hex", want{version: 4, name: "V4", revision: "0.7.0", mapName: "Map V4", clientsOn: 0, max: 8, cMx: 8,
		info: map[string]string{"language": "1", "newgrfs": "0", "map_height": "128"}}},
	{"v3_dates32.hex", want{version: 3, name: "V3", revision: "0.6.0", mapName: "Map V3", clientsOn: 2, max: 10, cMx: 8,
		info: map[string]string{"game_date": "1950-01-01", "dedicated": "false"}}},
	{"v2_dates16.hex", want{version: 2, name: "V2", revision: "0.5.0", mapName: "Map V2", clientsOn: 1, max: 10, password: true, companiesOn: 1, cMx: 8,
		info: map[string]string{"game_date": "1920-12-31", "start_date": "1920-01-01", "companies_max": "8", "spectators_max": "10"}}},
	{"v1_minimal.hex", want{version: 1, name: "V1", revision: "0.4.0", mapName: "Map V1", clientsOn: 0, max: 8,
		info: map[string]string{"game_date": "1920-01-01", "map_width": "64"}}},
	{"v6_lookup_ids.hex", want{version: 6, name: "Lookup", revision: "13.4", clientsOn: 0, max: 8, gameScriptVer: -1, cMx: 8,
		grfNames: []string{"", ""}, info: map[string]string{"newgrfs": "2"}}},
	{"v6_trailing.hex", want{version: 6, name: "Trailing", revision: "13.0", clientsOn: 0, max: 8, gameScriptVer: -1, cMx: 8, trailing: 3}},
}

func checkResult(t *testing.T, res *protocols.Result, w want) {
	t.Helper()
	if res.Name != w.name || res.Version != w.revision || res.Map != w.mapName {
		t.Errorf("name %q version %q map %q, want %q %q %q", res.Name, res.Version, res.Map, w.name, w.revision, w.mapName)
	}
	if res.Players != protocols.Known(w.clientsOn) || res.MaxPlayers != protocols.Known(w.max) {
		t.Errorf("players %+v max %+v, want %d/%d", res.Players, res.MaxPlayers, w.clientsOn, w.max)
	}
	if res.Password != protocols.FlagOf(w.password) {
		t.Errorf("password %v, want %v", res.Password, w.password)
	}
	if res.Bots.Known || res.PlayerList != nil || res.Game != "" {
		t.Errorf("fields OpenTTD does not report are set: %+v", res)
	}
	prototest.CheckInfoHas(t, res, w.info)
}

func TestVectors(t *testing.T) {
	for _, tc := range goodVectors {
		t.Run(tc.file, func(t *testing.T) {
			g, err := decodePacket(prototest.HexFile(t, tc.file))
			prototest.NoError(t, err)
			w := tc.want
			if g.Version != w.version || g.Trailing != w.trailing || g.GameScriptVersion != w.gameScriptVer ||
				g.TicksPlaying != w.ticks || g.CompaniesOn != w.companiesOn || g.CompaniesMax != w.cMx {
				t.Errorf("decoded %+v", g)
			}
			var names []string
			for _, f := range g.NewGRFs {
				names = append(names, f.Name)
			}
			if strings.Join(names, "|") != strings.Join(w.grfNames, "|") || len(names) != len(w.grfNames) {
				t.Errorf("newgrf names %q, want %q", names, w.grfNames)
			}
			checkResult(t, g.Result(false), w)
		})
	}
}

func TestVectorErrors(t *testing.T) {
	for file, want := range map[string]error{
		"bad_version8.hex":       wire.ErrMalformed,
		"bad_version0.hex":       wire.ErrMalformed,
		"bad_serialisation.hex":  wire.ErrMalformed,
		"bad_truncated.hex":      wire.ErrTruncated,
		"bad_name_no_nul.hex":    wire.ErrTruncated,
		"bad_size_mismatch.hex":  wire.ErrMalformed,
		"bad_size_small.hex":     wire.ErrMalformed,
		"bad_type.hex":           wire.ErrMalformed,
		"bad_grf_count_lies.hex": wire.ErrTruncated,
		"server_full.hex":        wire.ErrServer,
		"server_banned.hex":      wire.ErrServer,
		"server_error.hex":       wire.ErrServer,
	} {
		t.Run(file, func(t *testing.T) {
			g, err := decodePacket(prototest.HexFile(t, file))
			if !errors.Is(err, want) {
				t.Fatalf("err = %v, want %v", err, want)
			}
			if g.Version != 0 || g.ServerName != "" {
				t.Errorf("partial info %+v returned with an error", g)
			}
		})
	}
}

// TestRealCapture decodes what the Debian openttd 13.0 server (start.sh's
// config: "RealWorld OpenTTD", max_clients 12, max_companies 8, 64x64 map)
// sent gamedig, and what the capture tool recorded.
func TestRealCapture(t *testing.T) {
	for name, date := range map[string]string{
		"openttd_openttd_openttd-tcp-gameinfo.resp.bin":               "1950-04-29",
		"exchanges/openttd_openttd_gamedig/01_s2c_tcp_3979-47494.bin": "1950-05-02", // recorded 3 game days later
	} {
		t.Run(filepath.Base(name), func(t *testing.T) {
			g, err := decodePacket(prototest.Capture(t, name))
			prototest.NoError(t, err)
			if g.Version != 6 || g.NewGRFSerialisation != 1 || len(g.NewGRFs) != 0 || g.GameScriptVersion != -1 ||
				g.CompaniesMax != 8 || g.CompaniesOn != 0 || g.SpectatorsMax != 12 || g.SpectatorsOn != 0 || g.Trailing != 0 {
				t.Errorf("decoded %+v", g)
			}
			checkResult(t, g.Result(true), want{name: "RealWorld OpenTTD", revision: "13.0", clientsOn: 0, max: 12,
				info: map[string]string{"map_width": "64", "map_height": "64", "landscape": "temperate", "dedicated": "true",
					"game_date": date, "start_date": "1950-01-01", "companies_max": "8", "companies_on": "0", "newgrfs": "0"}})
		})
	}
	if req := prototest.Capture(t, "openttd_openttd_openttd-tcp-gameinfo.req.bin"); string(req) != string(request()) {
		t.Errorf("request % x, the reference client sends % x", request(), req)
	}
}

func TestRules(t *testing.T) {
	g, err := decodePacket(prototest.HexFile(t, "v7_ticks_gamescript.hex"))
	prototest.NoError(t, err)
	res := g.Result(true)
	rules := map[string]string{}
	for _, kv := range res.Rules {
		rules[kv.Key] = kv.Value
	}
	if rules["newgrf_4A4C4D01"] != "00112233445566778899aabbccddeeff Trains" || rules["gamescript_name"] != "CityGrowth" {
		t.Errorf("rules %v", rules)
	}
	if g.Result(false).Rules != nil {
		t.Error("rules without asking")
	}
}

func TestDateAndLandscape(t *testing.T) {
	for days, want := range map[uint32]string{0: "0000-01-01", 366: "0001-01-01", daysTill1920: "1920-01-01", 0xFFFFFFFF: "5000000-12-31"} {
		if got := date(days); got != want {
			t.Errorf("Date(%d) = %q, want %q", days, got, want)
		}
	}
	if landscapeName(9) != "9" || landscapeName(0) != "temperate" {
		t.Error("landscape names")
	}
}

func TestHeader(t *testing.T) {
	for _, tc := range []struct {
		in   []byte
		size int
		err  error
	}{
		{[]byte{3, 0, 6}, 3, nil},
		{[]byte{0xFF, 0x7F, 6}, maxPacket, nil},
		{[]byte{0x00, 0x80, 6}, 0, wire.ErrTooLarge},
		{[]byte{0xFF, 0xFF, 6}, 0, wire.ErrTooLarge},
		{[]byte{2, 0, 6}, 0, wire.ErrMalformed},
		{[]byte{3, 0}, 0, wire.ErrTruncated},
	} {
		size, err := header(tc.in)
		if size != tc.size || !errors.Is(err, tc.err) || (tc.err == nil) != (err == nil) {
			t.Errorf("Header(% x) = %d, %v", tc.in, size, err)
		}
	}
}

// Invalid UTF-8 in a name is read as Windows-1252, so Result strings stay valid.
func TestLatin1Name(t *testing.T) {
	b := prototest.HexFile(t, "v1_minimal.hex")
	i := strings.Index(string(b), "V1")
	b[i+1] = 0xE9 // "Vé" in Latin-1
	g, err := decodePacket(b)
	if err != nil || g.ServerName != "Vé" || !utf8.ValidString(g.ServerName) {
		t.Fatalf("%q %v", g.ServerName, err)
	}
}

// TestBotsMeaning: Players is the network clients on; AI companies are
// companies, not clients, so there is no bot count.
func TestBotsMeaning(t *testing.T) {
	g, err := decodePacket(prototest.HexFile(t, "v6_password_newgrf.hex"))
	prototest.NoError(t, err)
	prototest.CheckBots(t, g.Result(false), int64(g.ClientsOn), prototest.Unknown, true)
}

// FuzzDecodePacket checks that no packet panics the decoder or the reader,
// that errors carry a reason and that strings come out as valid UTF-8.
func FuzzDecodePacket(f *testing.F) {
	for _, b := range append(prototest.HexFiles(f), prototest.Captures("openttd_openttd_openttd-tcp-gameinfo.resp.bin")...) {
		f.Add(b)
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		// the stream reader must agree with the decoder on framing
		if pkt, err := readPacket(bytes.NewReader(b)); err == nil && len(pkt) > maxPacket {
			t.Fatalf("read %d bytes", len(pkt))
		}
		g, err := decodePacket(b)
		if err != nil {
			prototest.CheckReason(t, err)
			return
		}
		prototest.CheckUTF8(t, g.Result(true))
		if len(g.NewGRFs) > 255 {
			t.Fatalf("%d newgrfs", len(g.NewGRFs))
		}
	})
}

func BenchmarkDecodePacket(b *testing.B) {
	prototest.DecodeBench(b, prototest.HexFile(b, "v7_ticks_gamescript.hex"), func(pkt []byte) error {
		g, err := decodePacket(pkt)
		if err == nil {
			_ = g.Result(false)
		}
		return err
	})
}
