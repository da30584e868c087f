package samp

import (
	"net/netip"
	"os"
	"reflect"
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

// want is what a testdata vector's .expected.json says the decoder of its
// opcode reads (VC:MP's when the magic is MP04): an info's fields, as text in
// Encoding; the Result of a rules reply beside info_samp; a player list;
// open.mp's extra info; or the error it fails with. The query rows pin the
// Result of an info (the map is the third string on VC:MP only).
type want struct {
	prototest.HexVector
	Encoding                   string
	Name, Game, Third, Version string
	Players, Max               int64
	Password                   bool
	Trailing, Rules            int
	Map                        string
	OpenMP                     bool
	List                       []protocols.Player
	Discord, BannerDark, Logo  string
}

func TestVectors(t *testing.T) {
	info, err := decodeInfo(vec(t, "info_samp"), false)
	prototest.NoError(t, err)
	prototest.HexVectors(t, func(t *testing.T, b []byte, w want) {
		vcmp := string(b[:4]) == "MP04"
		var cp wire.CodePage
		prototest.NoError(t, cp.UnmarshalText([]byte(w.Encoding)))
		text := cp.Or(wire.UTF8)
		var got want
		switch b[10] {
		case opInfo:
			in, err := decodeInfo(b, vcmp)
			if w.Refused(t, b, err) {
				return
			}
			got = want{Name: text(in.name), Game: text(in.mode), Third: text(in.third), Version: string(in.version),
				Players: int64(in.players), Max: int64(in.max), Password: in.password, Trailing: in.trailing}
		case opRules:
			rules, err := decodeRules(b)
			if w.Refused(t, b, err) {
				return
			}
			st := &status{variant: variantSAMP, in: info, rules: rules}
			res := st.result(wire.UTF8, true)
			if res := st.result(wire.UTF8, false); res.Rules != nil || res.Version != w.Version {
				t.Errorf("without rules asked: rules %q version %q", res.Rules, res.Version)
			}
			got = want{Rules: len(res.Rules), Version: res.Version, Map: res.Map, OpenMP: st.openMP(wire.UTF8)}
		case opExtra:
			e, err := decodeExtra(b)
			if w.Refused(t, b, err) {
				return
			}
			got = want{Discord: string(e.discord), BannerDark: string(e.bannerDark), Logo: string(e.logo)}
		default:
			ps, err := decodePlayers(b, b[10], vcmp)
			if w.Refused(t, b, err) {
				return
			}
			got = want{List: playerList(ps, text)}
		}
		got.HexVector, got.Encoding = w.HexVector, w.Encoding
		if !reflect.DeepEqual(got, w) {
			t.Errorf("got  %+v\nwant %+v", got, w)
		}
	})
	// A VC:MP info cut inside its version name; open.mp's extra info cut.
	if _, err := decodeInfo(vec(t, "info_vcmp")[:headerLen+5], true); wire.Reason(err) != "truncated" {
		t.Errorf("cut version name: %v", err)
	}
	if _, err := decodeExtra(vec(t, "extra_openmp")[:30]); wire.Reason(err) != "truncated" {
		t.Errorf("cut extra: %v", err)
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
		check := func(err error) bool { // a refusal names its reason
			prototest.CheckReason(t, err)
			return err == nil
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
