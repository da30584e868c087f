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

// infoVectors are the info vectors of testdata/ (and the reference servers'
// captures, *.resp.bin) with their infoLine, then the names and handles listed
// (Red Eclipse), the error that cut them and the trailing bytes; and the info
// values they must hold.
var infoVectors = []struct {
	file string
	req  []byte
	want string
	info map[string]string
}{
	{"info_sauer_ctf.hex", pingWide, `Sauerbraten "Red Server" "forge" "260" 3/16 pw 1 sauerbraten | - [] "" 0`,
		map[string]string{"mode": "11", "mode_name": "ctf", "seconds_left": "421", "mastermode_name": "open"}},
	{"info_sauer_paused.hex", pingOne, `Sauerbraten "Paused" "" "259" 0/8 pw 2 sauerbraten | - [] "" 0`,
		map[string]string{"mode": "-1", "mode_name": "demo", "paused": "1", "gamespeed": "50", "mastermode_name": "password"}},
	{"info_sauer_charset.hex", pingOne, `Sauerbraten "ÝßзšÜA " "abc" "260" 1/4 pw 1 sauerbraten | - [] "" 0`, nil},
	{"info_sauer_trailing.hex", pingOne, `Sauerbraten "T" "" "260" 0/12 pw 1 sauerbraten | - [] "" 2`, map[string]string{"trailing_bytes": "2"}},
	{"info_redeclipse_players.hex", pingOne, `Red Eclipse "RE Srv" "venus" "1.6.0" 2/24 pw 2 redeclipse | [Alice Bob] ["" "bob"] "" 0`,
		map[string]string{"protocol": "230", "time_remaining": "600", "branch": "stable", "platform": "2",
			"arch": "64", "game_state": "5", "time_left": "300", "mastermode_name": "password"}},
	{"info_redeclipse_names_cut.hex", pingOne, `Red Eclipse "Cut" "dutility" "1.6.0" 2/16 pw 1 redeclipse | [Alice] [] "truncated" 0`, nil},
	{"info_unknown_layout.hex", pingOne, `Cube 2 "Odd" "m" "" 2/? pw 0 unknown | - [] "" 0`, map[string]string{"attr0": "5", "attr2": "2"}},
	// cube2-server 2020-12-27 (serverdesc "RealWorld Sauerbraten", maxclients 12,
	// no map, no players), asked with qstat's ping 01. qstat prints mode "0
	// coopedit": it shifts the mode table by one.
	{"cube2_sauerbraten_cube2-info.resp.bin", nil, `Sauerbraten "RealWorld Sauerbraten" "" "260" 0/12 pw 1 sauerbraten | - [] "" 0`,
		map[string]string{"mode": "0", "mode_name": "ffa", "mastermode_name": "open", "seconds_left": "0"}},
	// redeclipse-server 1.6.0: qstat reads max players 600 here, as attribute 3
	// is Red Eclipse's time.
	{"redeclipse_redeclipse_cube2-info.resp.bin", nil, `Red Eclipse "RealWorld RedEclipse" "battlefield" "1.6.0" 0/24 pw 1 redeclipse | [] [] "" 0`,
		map[string]string{"protocol": "230", "time_remaining": "600", "branch": "", "platform": "2", "arch": "64"}},
}

func TestDecodeInfoVectors(t *testing.T) {
	for _, tc := range infoVectors {
		t.Run(tc.file, func(t *testing.T) {
			b, req := prototest.HexFile, tc.req
			if base, ok := strings.CutSuffix(tc.file, ".resp.bin"); ok {
				b, req = prototest.Capture, prototest.Capture(t, base+".req.bin")
			}
			in, err := decodeInfo(b(t, tc.file), req)
			if err != nil {
				t.Fatal(err)
			}
			res := in.Result(true, true)
			names := "-"
			if res.PlayerList != nil {
				names = prototest.PlayerNames(res)
			}
			if got := fmt.Sprintf("%s | %s %q %q %d", infoLine(res), names, in.Handles, wire.Reason(in.NamesErr), in.Trailing); got != tc.want {
				t.Errorf("got  %s\nwant %s", got, tc.want)
			}
			prototest.CheckInfoHas(t, res, tc.info)
			if hasPhaseError(res, "players") != (in.NamesErr != nil) {
				t.Errorf("phase errors = %+v", res.PhaseErrors)
			}
			if len(res.Rules) == 0 || res.Rules[0].Key != "protocol" && !strings.Contains(tc.want, " unknown |") {
				t.Errorf("rules = %+v", res.Rules)
			}
		})
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

func TestDecodeInfoErrors(t *testing.T) {
	for _, tc := range []struct {
		file string
		want error
	}{
		{"bad_attr_count_huge.hex", wire.ErrTooLarge},
		{"bad_players_negative.hex", wire.ErrMalformed},
		{"bad_map_unterminated.hex", wire.ErrTruncated},
		{"bad_attr_cut.hex", wire.ErrTruncated},
		{"bad_echo.hex", wire.ErrMismatch},
	} {
		t.Run(tc.file, func(t *testing.T) {
			in, err := decodeInfo(prototest.HexFile(t, tc.file), pingOne)
			if !errors.Is(err, tc.want) || in != nil {
				t.Fatalf("err = %v, want %v", err, tc.want)
			}
			if !strings.Contains(err.Error(), "offset") && !errors.Is(err, wire.ErrMismatch) {
				t.Errorf("error %q names no offset", err)
			}
		})
	}
	t.Run("negative_attribute_count", func(t *testing.T) {
		if _, err := decodeInfo([]byte{1, 0, 0xFE}, pingOne); !errors.Is(err, wire.ErrMalformed) {
			t.Errorf("err = %v", err)
		}
	})
	t.Run("only_the_echo", func(t *testing.T) {
		if _, err := decodeInfo(pingWide, pingWide); !errors.Is(err, wire.ErrTruncated) {
			t.Errorf("err = %v", err)
		}
	})
}

func TestDecodePlayersVectors(t *testing.T) {
	t.Run("ids", func(t *testing.T) {
		x, err := decodePlayers(prototest.HexFile(t, "ext_ids.hex"))
		if err != nil || !x.IsIDs || x.Version != extVersion || !slices.Equal(x.IDs, []int32{0, 1, 128}) {
			t.Fatalf("%+v, %v", x, err)
		}
	})
	t.Run("ids_empty", func(t *testing.T) {
		x, err := decodePlayers(prototest.HexFile(t, "ext_ids_empty.hex"))
		if err != nil || !x.IsIDs || len(x.IDs) != 0 {
			t.Fatalf("%+v, %v", x, err)
		}
	})
	for _, tc := range []struct {
		file string
		want playerStats
	}{
		{"ext_stats_alice.hex", playerStats{CN: 0, Ping: 25, Name: "Alice", Team: "good", Frags: 10, Flags: 1, Deaths: 3,
			Accuracy: 42, Health: 100, Armour: 50, Gun: 4, Privilege: 1}},
		{"ext_stats_bob.hex", playerStats{CN: 1, Ping: 300, Name: "Bob", Team: "evil", Frags: -2, Deaths: 7, Teamkills: 1, State: 5}},
		{"ext_stats_bot.hex", playerStats{CN: 128, Name: "bot", Team: "good", Frags: 5, Deaths: 1, Accuracy: 30, Health: 100, Gun: 1}},
	} {
		t.Run(tc.file, func(t *testing.T) {
			x, err := decodePlayers(prototest.HexFile(t, tc.file))
			if err != nil || x.IsIDs {
				t.Fatalf("%+v, %v", x, err)
			}
			if x.Player != tc.want {
				t.Errorf("stats = %+v\nwant    %+v", x.Player, tc.want)
			}
			p := x.Player.Player()
			if p.Name != tc.want.Name || p.Team != tc.want.Team || p.Score != protocols.Known(int64(tc.want.Frags)) ||
				p.Ping != protocols.Known(int64(tc.want.Ping)) || p.Bot != (tc.want.CN >= 128) {
				t.Errorf("player = %+v", p)
			}
		})
	}
	for _, tc := range []struct {
		file string
		want error
	}{
		{"ext_error.hex", wire.ErrServer},
		{"ext_bad_ack.hex", wire.ErrMalformed},
		{"ext_bad_type.hex", wire.ErrMalformed},
		{"ext_stats_cut.hex", wire.ErrTruncated},
		{"ext_uptime.hex", wire.ErrMismatch}, // another request's echo
		{"info_sauer_ctf.hex", wire.ErrMismatch},
	} {
		t.Run(tc.file, func(t *testing.T) {
			if x, err := decodePlayers(prototest.HexFile(t, tc.file)); !errors.Is(err, tc.want) || x != nil {
				t.Errorf("%+v, %v; want %v", x, err, tc.want)
			}
		})
	}
	t.Run("too_many_ids", func(t *testing.T) {
		b := append(prototest.HexFile(t, "ext_ids_empty.hex"), make([]byte, maxPlayers+1)...)
		if _, err := decodePlayers(b); !errors.Is(err, wire.ErrTooLarge) {
			t.Errorf("err = %v", err)
		}
	})
}

func TestDecodeUptime(t *testing.T) {
	v, up, err := decodeUptime(prototest.HexFile(t, "ext_uptime.hex"))
	if err != nil || v != extVersion || up != 3600 {
		t.Errorf("version %d uptime %d, %v", v, up, err)
	}
	if _, _, err := decodeUptime([]byte{0, 0, 0xFF, 0x69}); !errors.Is(err, wire.ErrTruncated) {
		t.Errorf("no uptime: %v", err)
	}
	if _, _, err := decodeUptime(prototest.HexFile(t, "ext_ids.hex")); !errors.Is(err, wire.ErrMismatch) {
		t.Errorf("players reply: %v", err)
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

func TestLongStringsAreCut(t *testing.T) {
	b := append([]byte{1, 0, 0}, strings.Repeat("x", 2000)...)
	b = append(b, 0, 'd', 0)
	in, err := decodeInfo(b, pingOne)
	if err != nil || len(in.Map) != maxString || in.Desc != "d" {
		t.Fatalf("map of %d chars, desc %q, %v", len(in.Map), in.Desc, err)
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
	for _, b := range prototest.HexFiles(f, "ext_") {
		f.Add(b)
	}
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
