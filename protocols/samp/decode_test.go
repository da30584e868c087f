package samp

import (
	"net/netip"
	"os"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/gameserver-exporter/gameserver_exporter/protocols"
	"github.com/gameserver-exporter/gameserver_exporter/protocols/prototest"
	"github.com/gameserver-exporter/gameserver_exporter/protocols/wire"
)

func vec(t testing.TB, name string) []byte { return prototest.HexFile(t, name+".hex") }

func TestRequest(t *testing.T) {
	addr := netip.MustParseAddrPort("203.0.113.7:7777")
	want, _ := prototest.ParseHex(`"SAMP" cb007107 611e "i"`)
	if got := request(magicSAMP, addr, opInfo); string(got) != string(want) {
		t.Errorf("request % x, want % x", got, want)
	}
	want, _ = prototest.ParseHex(`"VCMP" cb007107 0020 "c"`)
	if got := request(magicVCMP, netip.MustParseAddrPort("203.0.113.7:8192"), opClients); string(got) != string(want) {
		t.Errorf("request % x, want % x", got, want)
	}
	// SA-MP listens on IPv4 only: an IPv6 target's address bytes are zeros.
	if got := request(magicSAMP, netip.MustParseAddrPort("[2001:db8::1]:7777"), opInfo); string(got[4:8]) != "\x00\x00\x00\x00" {
		t.Errorf("IPv6 request % x", got)
	}
	if got := replyHeader(request(magicVCMP, netip.MustParseAddrPort("203.0.113.7:8192"), opInfo)); string(got[:4]) != "MP04" {
		t.Errorf("VC:MP reply header % x", got)
	}
}

func TestAnswers(t *testing.T) {
	req := request(magicSAMP, netip.MustParseAddrPort("127.0.0.1:7777"), opInfo)
	head := replyHeader(req)
	info := vec(t, "info_samp")
	for _, c := range []struct {
		name string
		b    []byte
		want string
	}{
		{"the reply", info, ""},
		{"another opcode", vec(t, "rules_samp"), "mismatch"},
		{"another port", append(append([]byte(nil), info[:8]...), append([]byte{0x62, 0x1e}, info[10:]...)...), "mismatch"},
		{"short", info[:6], "malformed"},
		{"no magic", append([]byte("XAMP"), info[4:]...), "malformed"},
		{"VC:MP magic to a SA-MP request", vec(t, "info_vcmp"), "malformed"},
	} {
		err := answers(c.b, head)
		if got := wire.Reason(err); c.want == "" && err != nil || c.want != "" && got != c.want {
			t.Errorf("%s: %v, want %q", c.name, err, c.want)
		}
	}
}

// TestDecodeInfo pins the decoded fields; the query rows pin the Result built
// from them (the map is the third string on VC:MP only, the rules' on SA-MP).
func TestDecodeInfo(t *testing.T) {
	for _, c := range []struct {
		file, encoding             string
		vcmp                       bool
		name, game, third, version string
		players, max               int64
		password                   bool
		trailing                   int
	}{
		{"info_samp", "", false, "Fake Roleplay", "Freeroam v2", "English", "", 3, 50, false, 0},
		{"info_cp1252", "", false, "Café € Server", "DM", "Français", "", 0, 100, true, 0},
		{"info_cp1251", "windows-1251", false, "Русский сервер", "RP", "Русский", "", 1, 64, false, 0},
		// Without the module's encoding, Windows-1251 bytes read as Windows-1252.
		{"info_cp1251", "", false, "Ðóññêèé ñåðâåð", "RP", "Ðóññêèé", "", 1, 64, false, 0},
		{"info_vcmp", "", true, "VC Test Server", "Default", "Vice City", "04rel006", 2, 100, false, 0},
		{"info_trailing", "", false, "Padded", "GM", "EN", "", 0, 10, false, 5},
	} {
		t.Run(c.file+"/"+c.encoding, func(t *testing.T) {
			in, err := decodeInfo(vec(t, c.file), c.vcmp)
			if err != nil {
				t.Fatal(err)
			}
			text, err := wire.Encoding(c.encoding, wire.UTF8)
			if err != nil {
				t.Fatal(err)
			}
			if text(in.name) != c.name || text(in.mode) != c.game || text(in.third) != c.third || string(in.version) != c.version ||
				int64(in.players) != c.players || int64(in.max) != c.max || in.password != c.password || in.trailing != c.trailing {
				t.Errorf("%+v: %q %q %q", in, text(in.name), text(in.mode), text(in.third))
			}
		})
	}
}

func TestDecodeErrors(t *testing.T) {
	for file, want := range map[string]string{
		"err_info_truncated":     "truncated",
		"err_info_lying_length":  "truncated",
		"err_info_too_large":     "too_large",
		"err_password_flag":      "malformed",
		"err_rules_too_many":     "too_large",
		"err_rules_truncated":    "truncated",
		"err_players_count_lies": "truncated",
		"err_players_truncated":  "truncated",
	} {
		b := vec(t, file)
		var err error
		switch b[10] {
		case opInfo:
			_, err = decodeInfo(b, false)
		case opRules:
			_, err = decodeRules(b)
		default:
			_, err = decodePlayers(b, b[10], false)
		}
		if got := wire.Reason(err); got != want {
			t.Errorf("%s: %v, want %s", file, err, want)
		}
	}
	// A VC:MP info cut inside its version name.
	if _, err := decodeInfo(vec(t, "info_vcmp")[:headerLen+5], true); wire.Reason(err) != "truncated" {
		t.Errorf("cut version name: %v", err)
	}
}

func TestDecodeRules(t *testing.T) {
	in, _ := decodeInfo(vec(t, "info_samp"), false)
	for _, c := range []struct {
		file, version, mapName string
		n                      int
		openMP                 bool
	}{
		{"rules_samp", "0.3.7-R2", "San Andreas", 6, false},
		{"rules_openmp", "omp 1.4.0.2779", "San Andreas", 7, true},
		{"rules_empty", "", "", 2, false},
	} {
		rules, err := decodeRules(vec(t, c.file))
		if err != nil {
			t.Fatalf("%s: %v", c.file, err)
		}
		st := &status{variant: variantSAMP, in: in, rules: rules}
		res := st.result(wire.UTF8, true)
		if len(res.Rules) != c.n || res.Version != c.version || res.Map != c.mapName || st.openMP(wire.UTF8) != c.openMP {
			t.Errorf("%s: rules %q version %q map %q", c.file, res.Rules, res.Version, res.Map)
		}
		if res := st.result(wire.UTF8, false); res.Rules != nil || res.Version != c.version {
			t.Errorf("%s: without rules asked: rules %q version %q", c.file, res.Rules, res.Version)
		}
	}
}

func TestDecodePlayers(t *testing.T) {
	for _, c := range []struct {
		file  string
		op    byte
		vcmp  bool
		names []string
		score []int64 // nil: none
		ping  []int64
	}{
		{"players_d", opDetailed, false, []string{"Carl_Johnson", "Sweet", "René"}, []int64{12, -3, 0}, []int64{45, 80, 0}},
		{"players_c", opClients, false, []string{"Carl_Johnson", "Sweet", "Big_Smoke"}, []int64{12, -3, 7}, nil},
		{"players_c_vcmp", opClients, true, []string{"Tommy", "Lance"}, nil, nil},
	} {
		ps, err := decodePlayers(vec(t, c.file), c.op, c.vcmp)
		if err != nil {
			t.Fatalf("%s: %v", c.file, err)
		}
		list := playerList(ps, wire.UTF8)
		if len(list) != len(c.names) {
			t.Fatalf("%s: %d players", c.file, len(list))
		}
		for i, p := range list {
			want := protocols.Player{Name: c.names[i]}
			if c.score != nil {
				want.Score = protocols.Known(c.score[i])
			}
			if c.ping != nil {
				want.Ping = protocols.Known(c.ping[i])
			}
			if p != want {
				t.Errorf("%s: player %d = %+v, want %+v", c.file, i, p, want)
			}
		}
	}
}

func TestDecodeExtra(t *testing.T) {
	e, err := decodeExtra(vec(t, "extra_openmp"))
	if err != nil {
		t.Fatal(err)
	}
	if string(e.discord) != "discord.gg/openmp" || string(e.bannerDark) != "https://example.org/banner-dark.png" || len(e.logo) != 0 {
		t.Errorf("%+v", e)
	}
	if _, err := decodeExtra(vec(t, "extra_openmp")[:30]); wire.Reason(err) != "truncated" {
		t.Errorf("cut: %v", err)
	}
}

// FuzzDecode feeds one datagram to every decoder: no input panics one, every
// error names one reason, and a result is UTF-8 with counts in range.
func FuzzDecode(f *testing.F) {
	entries, err := os.ReadDir("testdata")
	if err != nil {
		f.Fatal(err)
	}
	for _, e := range entries {
		if name, ok := strings.CutSuffix(e.Name(), ".hex"); ok {
			f.Add(vec(f, name))
		}
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		check := func(err error) bool {
			if err != nil {
				if r := wire.Reason(err); r == "" || r == "other" {
					t.Fatalf("error without a reason: %v", err)
				}
				return false
			}
			return true
		}
		if len(b) < headerLen {
			return // answers skips it before any decoder sees it
		}
		for _, vcmp := range []bool{false, true} {
			in, err := decodeInfo(b, vcmp)
			if check(err) {
				res := (&status{variant: variantVCMP, in: in}).result(wire.UTF8, true)
				if res.Players.Value < 0 || res.Players.Value > 65535 || !utf8.ValidString(res.Name+res.Game+res.Map+res.Version) {
					t.Fatalf("result %+v", res)
				}
			}
			for _, op := range []byte{opDetailed, opClients} {
				ps, err := decodePlayers(b, op, vcmp)
				if check(err) {
					for _, p := range playerList(ps, wire.Windows1251) {
						if !utf8.ValidString(p.Name) {
							t.Fatalf("player %q", p.Name)
						}
					}
				}
			}
		}
		if rules, err := decodeRules(b); check(err) && len(rules) > maxRules {
			t.Fatalf("%d rules", len(rules))
		}
		_, err := decodeExtra(b)
		check(err)
	})
}

func BenchmarkDecodeInfo(b *testing.B) {
	prototest.DecodeBench(b, vec(b, "info_samp"), func(v []byte) error {
		_, err := decodeInfo(v, false)
		return err
	})
}

func BenchmarkDecodePlayers(b *testing.B) {
	prototest.DecodeBench(b, vec(b, "players_d"), func(v []byte) error {
		_, err := decodePlayers(v, opDetailed, false)
		return err
	})
}
