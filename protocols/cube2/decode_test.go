package cube2

import (
	"errors"
	"fmt"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/gameserver-exporter/gameserver_exporter/protocols"
	"github.com/gameserver-exporter/gameserver_exporter/protocols/prototest"
	"github.com/gameserver-exporter/gameserver_exporter/protocols/wire"
)

var (
	pingOne  = []byte{0x01}
	pingWide = []byte{0x81, 0x78, 0x56, 0x34, 0x12}
)

// infoLine is what a decoded info reply says above its lists, in one line: the
// game, name, map, version, players/max, password flag and layout.
func infoLine(res *protocols.Result) string {
	return fmt.Sprintf("%s %q %q %q %s/%s pw %d %s", res.Game, res.Name, res.Map, res.Version,
		prototest.CountText(res.Players), prototest.CountText(res.MaxPlayers), res.Password, prototest.InfoOf(res)["layout"])
}

// want is a vector's .expected.json: for an info reply its infoLine, then the
// names and handles listed (Red Eclipse), the error that cut them and the
// trailing bytes, and info values it must hold; for an extinfo reply the client
// numbers, a player's stats or the uptime; or the error it fails with (Message:
// a text the error holds, the offset for a decoder's own).
type want struct {
	prototest.HexVector
	Line   string
	Info   map[string]string
	IDs    []int32
	Stats  *playerStats
	Uptime int32
}

// TestVectors decodes each vector with the decoder its echo names (an info
// request's ping, 00 01 FF for EXT_PLAYERSTATS, 00 00 for EXT_UPTIME); the
// other extinfo decoder refuses it as another request's echo.
func TestVectors(t *testing.T) {
	prototest.HexVectors(t, func(t *testing.T, b []byte, w want) {
		switch {
		case b[0] != 0:
			if _, err := decodePlayers(b); !errors.Is(err, wire.ErrMismatch) {
				t.Errorf("extinfo of an info reply: %v", err)
			}
			req := pingOne
			if b[0] == 0x81 {
				req = pingWide
			}
			in, err := decodeInfo(b, req)
			if w.Refused(t, b, err) {
				if in != nil {
					t.Errorf("info %+v with an error", in)
				}
				return
			}
			checkInfo(t, in, w.Line, w.Info)
		case b[1] == 0:
			v, up, err := decodeUptime(b)
			if _, perr := decodePlayers(b); !w.Refused(t, b, err) && (v != extVersion || up != w.Uptime || !errors.Is(perr, wire.ErrMismatch)) {
				t.Errorf("version %d uptime %d; players: %v", v, up, perr)
			}
		default:
			if _, _, err := decodeUptime(b); !errors.Is(err, wire.ErrMismatch) {
				t.Errorf("uptime of a players reply: %v", err)
			}
			x, err := decodePlayers(b)
			if w.Refused(t, b, err) {
				if x != nil {
					t.Errorf("%+v with an error", x)
				}
				return
			}
			checkPlayers(t, x, w)
		}
	})
}

// checkInfo checks a decoded info reply against its line and info values.
func checkInfo(t *testing.T, in *info, line string, info map[string]string) {
	t.Helper()
	res := in.Result(true, true)
	names := "-"
	if res.PlayerList != nil {
		names = prototest.PlayerNames(res)
	}
	if got := fmt.Sprintf("%s | %s %q %q %d", infoLine(res), names, in.Handles, wire.Reason(in.NamesErr), in.Trailing); got != line {
		t.Errorf("got  %s\nwant %s", got, line)
	}
	prototest.CheckInfoHas(t, res, info)
	if hasPhaseError(res, "players") != (in.NamesErr != nil) {
		t.Errorf("phase errors = %+v", res.PhaseErrors)
	}
	if len(in.Attrs) > 0 && (len(res.Rules) == 0 || res.Rules[0].Key != "protocol" && !strings.Contains(line, " unknown |")) {
		t.Errorf("rules = %+v", res.Rules)
	}
}

func hasPhaseError(res *protocols.Result, phase string) bool {
	for _, pe := range res.PhaseErrors {
		if pe.Phase == phase {
			return true
		}
	}
	return false
}

// checkPlayers checks an EXT_PLAYERSTATS reply: the client numbers, or one
// player's stats and the Player made of them.
func checkPlayers(t *testing.T, x *extPlayers, w want) {
	t.Helper()
	if x.Version != extVersion || x.IsIDs != (w.Stats == nil) || w.Stats == nil && !slices.Equal(x.IDs, w.IDs) {
		t.Fatalf("%+v, want %+v", x, w)
	}
	if w.Stats == nil {
		return
	}
	if x.Player != *w.Stats {
		t.Errorf("stats = %+v\nwant    %+v", x.Player, *w.Stats)
	}
	p := x.Player.Player()
	if p.Name != w.Stats.Name || p.Team != w.Stats.Team || p.Score != protocols.Known(int64(w.Stats.Frags)) ||
		p.Ping != protocols.Known(int64(w.Stats.Ping)) || p.Bot != (w.Stats.CN >= 128) {
		t.Errorf("player = %+v", p)
	}
}

// TestDecodeCaptures decodes the info replies of the reference servers of
// shared/realworld: cube2-server 2020-12-27 (serverdesc "RealWorld
// Sauerbraten", maxclients 12, no map, no players), asked with qstat's ping 01
// (qstat prints mode "0 coopedit": it shifts the mode table by one); and
// redeclipse-server 1.6.0, where qstat reads max players 600, as attribute 3 is
// Red Eclipse's time.
func TestDecodeCaptures(t *testing.T) {
	for _, tc := range []struct {
		name, line string
		info       map[string]string
	}{
		{"cube2_sauerbraten_cube2-info", `Sauerbraten "RealWorld Sauerbraten" "" "260" 0/12 pw 1 sauerbraten | - [] "" 0`,
			map[string]string{"mode": "0", "mode_name": "ffa", "mastermode_name": "open", "seconds_left": "0"}},
		{"redeclipse_redeclipse_cube2-info", `Red Eclipse "RealWorld RedEclipse" "battlefield" "1.6.0" 0/24 pw 1 redeclipse | [] [] "" 0`,
			map[string]string{"protocol": "230", "time_remaining": "600", "branch": "", "platform": "2", "arch": "64"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			in, err := decodeInfo(prototest.Capture(t, tc.name+".resp.bin"), prototest.Capture(t, tc.name+".req.bin"))
			prototest.NoError(t, err)
			checkInfo(t, in, tc.line, tc.info)
		})
	}
}

func TestDecodeEdges(t *testing.T) {
	if _, err := decodeInfo([]byte{1, 0, 0xFE}, pingOne); !errors.Is(err, wire.ErrMalformed) {
		t.Errorf("negative attribute count: %v", err)
	}
	if _, err := decodeInfo(pingWide, pingWide); !errors.Is(err, wire.ErrTruncated) {
		t.Errorf("only the echo: %v", err)
	}
	b := append(prototest.HexFile(t, "ext_ids_empty.hex"), make([]byte, maxPlayers+1)...)
	if _, err := decodePlayers(b); !errors.Is(err, wire.ErrTooLarge) {
		t.Errorf("too many ids: %v", err)
	}
	if _, _, err := decodeUptime([]byte{0, 0, 0xFF, 0x69}); !errors.Is(err, wire.ErrTruncated) {
		t.Errorf("no uptime: %v", err)
	}
}

// TestRealworld checks the extinfo exchanges of the reference servers of
// shared/realworld (their info replies are infoVectors).
func TestRealworld(t *testing.T) {
	t.Run("sauerbraten_extinfo_players", func(t *testing.T) {
		req := prototest.Capture(t, "cube2_sauerbraten_cube2-extinfo-players.req.bin")
		if !slices.Equal(req, playersRequest()) {
			t.Fatalf("captured request % X, ours % X", req, playersRequest())
		}
		x, err := decodePlayers(prototest.Capture(t, "cube2_sauerbraten_cube2-extinfo-players.resp.bin"))
		if err != nil || !x.IsIDs || len(x.IDs) != 0 || x.Version != extVersion {
			t.Fatalf("%+v, %v", x, err)
		}
	})
	t.Run("redeclipse_ignores_extinfo", func(t *testing.T) {
		// Only the request was recorded: Red Eclipse never answered it.
		if req := prototest.Capture(t, "redeclipse_redeclipse_cube2-extinfo-players.req.bin"); !slices.Equal(req, playersRequest()) {
			t.Errorf("captured request % X", req)
		}
	})
	t.Run("qstat_exchange", func(t *testing.T) {
		// qstat pings with 80 10 27 (10000 as a 16-bit packed int) and gets it back.
		dir := filepath.Join("exchanges", "cube2_sauerbraten_qstat")
		req := prototest.Capture(t, filepath.Join(dir, "00_c2s_udp_48155-28786.bin"))
		in, err := decodeInfo(prototest.Capture(t, filepath.Join(dir, "01_s2c_udp_28786-48155.bin")), req)
		if err != nil || in.Desc != "RealWorld Sauerbraten" || in.Attrs[3] != 12 {
			t.Errorf("%+v, %v", in, err)
		}
	})
}

func TestPackedInts(t *testing.T) {
	for _, tc := range []struct {
		in   []byte
		want int32
	}{
		{[]byte{0x00}, 0}, {[]byte{0x7F}, 127}, {[]byte{0x82}, -126}, {[]byte{0xFF}, -1},
		{[]byte{0x80, 0x80, 0xFF}, -128}, {[]byte{0x80, 0x04, 0x01}, 260}, {[]byte{0x80, 0x00, 0x80}, -32768},
		{[]byte{0x81, 0x78, 0x56, 0x34, 0x12}, 0x12345678}, {[]byte{0x81, 0xFF, 0xFF, 0xFF, 0xFF}, -1},
	} {
		r := wire.NewReader(tc.in)
		if got := getInt(&r, "v"); got != tc.want || r.Err() != nil || r.Len() != 0 {
			t.Errorf("getInt(% X) = %d, %v; want %d", tc.in, got, r.Err(), tc.want)
		}
	}
	for _, b := range [][]byte{{}, {0x80}, {0x80, 1}, {0x81, 1, 2, 3}} {
		r := wire.NewReader(b)
		if getInt(&r, "v"); !errors.Is(r.Err(), wire.ErrTruncated) {
			t.Errorf("getInt(% X): %v", b, r.Err())
		}
	}
	for ping, want := range map[int32][]byte{
		1: {0x01}, 0: {0x01}, 127: {0x7F}, -126: {0x82}, 128: {0x81, 0x80, 0, 0, 0}, 0x12345678: pingWide,
	} {
		if got := infoRequest(ping); !slices.Equal(got, want) {
			t.Errorf("InfoRequest(%d) = % X, want % X", ping, got, want)
		}
	}
}

func TestCharset(t *testing.T) {
	for i, r := range cube2uni {
		if (r == 0) != (i == 0) {
			t.Errorf("cube2uni[%#x] = %#x", i, r)
		}
	}
	if got := text([]byte{'a', 0xE9, 0x7F, 0x09}); got != "aзÜ\t" {
		t.Errorf("Text = %q", got)
	}
	if got := text([]byte("plain ascii")); got != "plain ascii" {
		t.Errorf("Text = %q", got)
	}
}

func TestStripColours(t *testing.T) {
	for _, tc := range []struct {
		in, want string
		re       bool
	}{
		{"plain", "plain", false},
		{"\f3Red \f7Server", "Red Server", false},
		{"\fs\f1a\fr b", "a b", false},
		{"end\f", "end", false},
		{"\f[FF0000]hex\f(textures/icon)img", "heximg", true},
		{"\f[unclosed", "unclosed", false}, // '[' is the code character
		{"\fzwyblink", "blink", true},
		{"\fzwyblink", "wyblink", false}, // Sauerbraten has no \fz
		{"\fz", "", true},
	} {
		if got := string(stripColours([]byte(tc.in), tc.re)); got != tc.want {
			t.Errorf("StripColours(%q, %v) = %q, want %q", tc.in, tc.re, got, tc.want)
		}
	}
}

func FuzzDecodeInfo(f *testing.F) {
	add := func(b []byte) {
		n := 1
		if len(b) > 0 && b[0] == 0x81 {
			n = 5
		}
		f.Add(b[:min(n, len(b))], b)
	}
	for _, b := range prototest.HexFiles(f, "info_", "bad_") {
		add(b)
	}
	for _, b := range prototest.Captures("cube2_sauerbraten_cube2-info" + "*.resp.bin") {
		add(b)
	}
	for _, b := range prototest.Captures("redeclipse_" + "*.resp.bin") {
		add(b)
	}
	f.Fuzz(func(t *testing.T, req, b []byte) {
		in, err := decodeInfo(b, req)
		if err != nil {
			return
		}
		if in.Players < 0 || len(in.Attrs) > maxAttrs || len(in.Names) > maxPlayers || len(in.Handles) > maxPlayers {
			t.Fatalf("bad counts %+v", in)
		}
		prototest.CheckUTF8(t, in.Result(true, true))
	})
}

func FuzzDecodeExtinfo(f *testing.F) {
	prototest.SeedHex(f, "ext_")
	for _, b := range prototest.Captures("cube2_sauerbraten_cube2-extinfo" + "*.resp.bin") {
		f.Add(b)
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		if x, err := decodePlayers(b); err == nil {
			if len(x.IDs) > maxPlayers || !utf8.ValidString(x.Player.Name) || !utf8.ValidString(x.Player.Team) {
				t.Fatalf("bad record %+v", x)
			}
		}
		decodeUptime(b)
	})
}

func BenchmarkDecodeInfo(b *testing.B) {
	prototest.DecodeBench(b, prototest.HexFile(b, "info_sauer_ctf.hex"), func(v []byte) error {
		in, err := decodeInfo(v, pingWide)
		if err == nil {
			_ = in.Result(false, false)
		}
		return err
	})
}

func BenchmarkDecodePlayers(b *testing.B) {
	prototest.DecodeBench(b, prototest.HexFile(b, "ext_stats_alice.hex"), func(v []byte) error {
		_, err := decodePlayers(v)
		return err
	})
}
