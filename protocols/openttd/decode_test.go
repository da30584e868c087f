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

// want is what a vector's .expected.json (or a real capture) decodes to; a vector
// whose Error is set must fail with it and no partial info.
type want struct {
	prototest.HexVector
	Version                   uint8
	Name, Revision, Map       string
	ClientsOn, Max            int64
	Password                  bool
	Info                      map[string]string
	GRFNames                  []string
	Trailing                  int
	GameScriptVersion         int32
	Ticks                     uint64
	CompaniesOn, CompaniesMax uint8
}

// checkResult checks the Result: Players is the network clients on; AI
// companies are companies, not clients, so there is no bot count.
func checkResult(t *testing.T, res *protocols.Result, w want) {
	t.Helper()
	if res.Name != w.Name || res.Version != w.Revision || res.Map != w.Map {
		t.Errorf("name %q version %q map %q, want %q %q %q", res.Name, res.Version, res.Map, w.Name, w.Revision, w.Map)
	}
	if res.Players != protocols.Known(w.ClientsOn) || res.MaxPlayers != protocols.Known(w.Max) {
		t.Errorf("players %+v max %+v, want %d/%d", res.Players, res.MaxPlayers, w.ClientsOn, w.Max)
	}
	if res.Password != protocols.FlagOf(w.Password) {
		t.Errorf("password %v, want %v", res.Password, w.Password)
	}
	if res.PlayerList != nil || res.Game != "" {
		t.Errorf("fields OpenTTD does not report are set: %+v", res)
	}
	prototest.CheckBots(t, res, w.ClientsOn, prototest.Unknown, true)
	prototest.CheckInfoHas(t, res, w.Info)
}

func TestVectors(t *testing.T) {
	prototest.HexVectors(t, func(t *testing.T, b []byte, w want) {
		g, err := decodePacket(b)
		if w.Refused(t, b, err) {
			if g.Version != 0 || g.ServerName != "" {
				t.Errorf("partial info %+v returned with an error", g)
			}
			return
		}
		if g.Version != w.Version || g.Trailing != w.Trailing || g.GameScriptVersion != w.GameScriptVersion ||
			g.TicksPlaying != w.Ticks || g.CompaniesOn != w.CompaniesOn || g.CompaniesMax != w.CompaniesMax {
			t.Errorf("decoded %+v", g)
		}
		var names []string
		for _, f := range g.NewGRFs {
			names = append(names, f.Name)
		}
		if strings.Join(names, "|") != strings.Join(w.GRFNames, "|") || len(names) != len(w.GRFNames) {
			t.Errorf("newgrf names %q, want %q", names, w.GRFNames)
		}
		checkResult(t, g.Result(false), w)
	})
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
			checkResult(t, g.Result(true), want{Name: "RealWorld OpenTTD", Revision: "13.0", ClientsOn: 0, Max: 12,
				Info: map[string]string{"map_width": "64", "map_height": "64", "landscape": "temperate", "dedicated": "true",
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
	rules := prototest.KVMap(res.Rules)
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

// FuzzDecodePacket checks that no packet panics the decoder or the reader, and
// that errors carry a reason (FuzzResults: strings come out as valid UTF-8).
func FuzzDecodePacket(f *testing.F) {
	seeds := append(prototest.HexFiles(f), prototest.Captures("openttd_openttd_openttd-tcp-gameinfo.resp.bin")...)
	prototest.FuzzResults(f, seeds, func(t *testing.T, b []byte) *protocols.Result {
		// the stream reader must agree with the decoder on framing
		if pkt, err := readPacket(bytes.NewReader(b)); err == nil && len(pkt) > maxPacket {
			t.Fatalf("read %d bytes", len(pkt))
		}
		g, err := decodePacket(b)
		if err != nil {
			prototest.CheckReason(t, err)
			return nil
		}
		if len(g.NewGRFs) > 255 {
			t.Fatalf("%d newgrfs", len(g.NewGRFs))
		}
		return g.Result(true)
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
