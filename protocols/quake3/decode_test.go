package quake3

import (
	"errors"
	"fmt"
	"os"
	"slices"
	"strconv"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/gameserver-exporter/gameserver_exporter/protocols"
	"github.com/gameserver-exporter/gameserver_exporter/protocols/internal/idtech"
	"github.com/gameserver-exporter/gameserver_exporter/protocols/internal/idtech/idtechtest"
	"github.com/gameserver-exporter/gameserver_exporter/protocols/prototest"
	"github.com/gameserver-exporter/gameserver_exporter/protocols/wire"
)

type expected struct {
	idtechtest.Vector
	Decoded *struct {
		Response      string
		Info          [][2]prototest.Latin1String
		InfoPairCount *int `json:"info_pair_count"`
		PlayerCount   int  `json:"player_count"`
		Players       []struct {
			Numbers   []int64
			Name      prototest.Latin1String
			NameClean prototest.Latin1String  `json:"name_clean"`
			AfterName *prototest.Latin1String `json:"after_name"`
		}
		EndsWithNewline bool `json:"ends_with_newline"`
		Unparsed        int
		Dropped         int
	}
	Result *idtechtest.Result
}

// decodeLatin1 is decode with the module's default code page.
func decodeLatin1(b []byte) (*reply, error) { return decode(b, wire.Latin1) }

func checkDecoded(t *testing.T, r *reply, e expected) {
	t.Helper()
	d := e.Decoded
	if r.Response != d.Response {
		t.Errorf("response = %q, want %q", r.Response, d.Response)
	}
	if d.InfoPairCount != nil && len(r.Pairs) != *d.InfoPairCount {
		t.Errorf("info pairs = %d, want %d", len(r.Pairs), *d.InfoPairCount)
	}
	if len(r.Pairs) != len(d.Info) {
		t.Errorf("info pairs = %d, want %d: %q", len(r.Pairs), len(d.Info), r.Pairs)
	}
	for i := range min(len(r.Pairs), len(d.Info)) {
		if got, want := r.Pairs[i], d.Info[i]; got.Key != string(want[0]) || got.Value != string(want[1]) {
			t.Errorf("info[%d] = %q=%q, want %q=%q", i, got.Key, got.Value, want[0], want[1])
		}
	}
	if len(r.Players) != d.PlayerCount {
		t.Errorf("players = %d, want %d", len(r.Players), d.PlayerCount)
	}
	if d.Players != nil && len(r.Players) != len(d.Players) {
		t.Fatalf("players = %d, want %d", len(r.Players), len(d.Players))
	}
	for i, want := range d.Players {
		got := r.Players[i]
		if nums := got.Numbers[:got.NumCount]; !slices.Equal(nums, want.Numbers) {
			t.Errorf("player %d numbers = %v, want %v", i, nums, want.Numbers)
		}
		if got.Name != string(want.Name) || got.Clean != string(want.NameClean) {
			t.Errorf("player %d name = %q / %q, want %q / %q", i, got.Name, got.Clean, want.Name, want.NameClean)
		}
		wantAfter := ""
		if want.AfterName != nil {
			wantAfter = string(*want.AfterName)
		}
		if got.After != wantAfter {
			t.Errorf("player %d after name = %q, want %q", i, got.After, wantAfter)
		}
	}
	if r.EndsWithNewline != d.EndsWithNewline {
		t.Errorf("ends with newline = %v, want %v", r.EndsWithNewline, d.EndsWithNewline)
	}
	if r.Unparsed != d.Unparsed || r.Dropped != d.Dropped {
		t.Errorf("unparsed/dropped = %d/%d, want %d/%d", r.Unparsed, r.Dropped, d.Unparsed, d.Dropped)
	}
}

func TestVectors(t *testing.T) {
	idtechtest.Vectors(t, decodeLatin1, func(t *testing.T, r *reply, e expected) {
		checkDecoded(t, r, e)
		if e.Result != nil {
			e.Result.Check(t, r.result(true, true))
		}
	})
}

// fixtureResults are the Result fields of the real captures that the
// .expected.json files do not state directly: names with colour codes removed
// by the original id rule, game, version, password.
var fixtureResults = map[string]struct {
	name, game, version string
	password            protocols.Flag
}{
	"q3_status_baseq3_132c":       {"XXXADULTS*ONLYXXX", "baseq3", "Q3 1.32c linux-i386 May  8 2009", protocols.FlagFalse},
	"q3_status_cod1_doublecaret":  {strings.Repeat("\x01", 10) + "neXus#TDM", "main", "1.1", protocols.FlagFalse},
	"q3_status_cod4x":             {"=|h4x|=War 24/7 Server COD4", "Call of Duty 4", "CoD4 X 1.7a win_mingw-x86-testing build 3325 Jan  3 2015", protocols.FlagUnknown},
	"q3_status_jediacademy":       {"{JoF}Public Server", "JA+ Mod v2.4 B7", "JAmp: v1.0.1.0 linux-i386 Jul 30 2017", protocols.FlagFalse},
	"q3_status_noghost_noplayers": {"Megas|CTF.", "NoGhost", "Q3 1.15c win-x86 Jan 13 2000", protocols.FlagFalse},
	"q3_status_sof2":              {"3D# Hide&Seek", "sof2mp", "SOF2MP V1.00 linux-i386 May  6 2002", protocols.FlagFalse},
	"q3_status_urbanterror":       {"|RFA| RisenFromAshes.us", "q3urt43", "ioQ3 1.35 urt 4.3.4 linux-x86_64 Jul 15 2019", protocols.FlagFalse},
	"q3_status_warsow_team":       {"___ gibcity-|-insta ___ #1 /// bb2", "Warsow", "2.01 x86_64 Dec 19 2015 Linux", protocols.FlagFalse},
	"q3_status_wolfet":            {"F|A RECRUITING XP SAVE", "jaymod", "ET 3.00 - TB 0.7.4 linux-i386", protocols.FlagFalse},
}

// TestFixtures decodes every real capture in shared/fixtures/quake3 in place.
func TestFixtures(t *testing.T) {
	prototest.FixtureVectors(t, "quake3", func(t *testing.T, name string, e expected) {
		b := prototest.Fixture(t, "quake3", name+".bin")
		r, err := decodeStatus(b, wire.Latin1)
		prototest.NoError(t, err)
		checkDecoded(t, r, e)
		checkFixtureResult(t, name, r.result(true, true), e)
	})
}

// checkFixtureResult checks the Result of a real capture against its
// .expected.json and fixtureResults.
func checkFixtureResult(t *testing.T, name string, res *protocols.Result, e expected) {
	t.Helper()
	prototest.CheckUTF8(t, res)
	info := map[string]string{}
	for _, kv := range e.Decoded.Info {
		if _, dup := info[strings.ToLower(string(kv[0]))]; !dup {
			info[strings.ToLower(string(kv[0]))] = string(kv[1])
		}
	}
	if res.Map != info["mapname"] {
		t.Errorf("map = %q, want %q", res.Map, info["mapname"])
	}
	if !res.Players.Known || res.Players.Value != int64(e.Decoded.PlayerCount) {
		t.Errorf("players = %+v, want %d", res.Players, e.Decoded.PlayerCount)
	}
	if got := res.MaxPlayers; !got.Known || strconv.FormatInt(got.Value, 10) != info["sv_maxclients"] {
		t.Errorf("max players = %+v, want %s", got, info["sv_maxclients"])
	}
	if res.Bots.Known {
		t.Errorf("bots = %+v, want unknown: no fixture reports bots", res.Bots)
	}
	want, ok := fixtureResults[name]
	if !ok {
		t.Fatalf("fixture %s has no entry in fixtureResults", name)
	}
	if res.Name != want.name || res.Game != want.game || res.Version != want.version || res.Password != want.password {
		t.Errorf("name/game/version/password = %q %q %q %v, want %q %q %q %v",
			res.Name, res.Game, res.Version, res.Password, want.name, want.game, want.version, want.password)
	}
	if len(res.PlayerList) != len(e.Decoded.Players) {
		t.Fatalf("player list = %d entries, want %d", len(res.PlayerList), len(e.Decoded.Players))
	}
	for i, p := range e.Decoded.Players {
		got := res.PlayerList[i]
		if got.Name != string(p.NameClean) || got.Score.Value != p.Numbers[0] || got.Ping.Value != p.Numbers[1] {
			t.Errorf("player %d = %q %+v %+v, want %q %d %d", i, got.Name, got.Score, got.Ping, p.NameClean, p.Numbers[0], p.Numbers[1])
		}
		if p.AfterName != nil && got.Team != string(*p.AfterName) {
			t.Errorf("player %d team = %q, want %q", i, got.Team, *p.AfterName)
		}
	}
	if len(res.Rules) != len(e.Decoded.Info) {
		t.Errorf("rules = %d, want %d", len(res.Rules), len(e.Decoded.Info))
	}
}

// TestRealworld checks the replies of the reference servers of
// shared/realworld (OpenArena 0.8.8 and ioq3ded on ioq3 1.36, Nexuiz 2.5.2 on
// DarkPlaces) against what their README says they were started with.
func TestRealworld(t *testing.T) {
	for file, want := range map[string]string{ // name/map/game/players/max/bots/password
		// ioq3 lists its 4 bots as ordinary lines with ping 0 and no bot key.
		"openarena_openarena_q3-getstatus.resp.bin": "RealWorld OpenArena/oa_dm1/baseoa/4/12/?/false",
		// getinfo: clients 4, g_humanplayers 0: no human, 4 bots.
		"openarena_openarena_q3-getinfo.resp.bin": "RealWorld OpenArena/oa_dm1/Quake3Arena/0/12/4/false",
		"q3_ioq3ctf_q3-getstatus.resp.bin":        "RealWorld ioq3 CTF/oa_ctf4ish/baseoa/6/16/?/true",
		"q3_ioq3ctf_q3-getinfo.resp.bin":          "RealWorld ioq3 CTF/oa_ctf4ish/Quake3Arena/0/16/6/true",
		// DarkPlaces counts its bots itself: 4 lines, all bots.
		"nexuiz_nexuiz_q3-getstatus.resp.bin": "RealWorld Nexuiz/aggressor/Nexuiz/0/10/4/?",
		"nexuiz_nexuiz_q3-getinfo.resp.bin":   "RealWorld Nexuiz/aggressor/Nexuiz/0/10/4/?",
	} {
		t.Run(file, func(t *testing.T) {
			r, err := decodeLatin1(prototest.Capture(t, file))
			prototest.NoError(t, err)
			res := r.result(true, false)
			bots, password := "?", "?"
			if res.Bots.Known {
				bots = fmt.Sprint(res.Bots.Value)
			}
			if res.Password != protocols.FlagUnknown {
				password = fmt.Sprint(res.Password == protocols.FlagTrue)
			}
			if got := fmt.Sprintf("%s/%s/%s/%d/%d/%s/%s", res.Name, res.Map, res.Game, res.Players.Value, res.MaxPlayers.Value, bots, password); got != want || !res.Players.Known || !res.MaxPlayers.Known {
				t.Errorf("got %s, want %s", got, want)
			}
			if r.Response == idtech.StatusResponse {
				for _, p := range res.PlayerList {
					if p.Bot || !p.Ping.Known || p.Ping.Value != 0 || !p.Score.Known || p.Name == "" {
						t.Errorf("player %+v: want a named player with ping 0 and no bot flag", p)
					}
				}
			} else if c, _ := r.Lookup("challenge"); c != "xxx" {
				t.Errorf("challenge = %q, want the echoed xxx", c)
			}
		})
	}
}

func TestDecodeKinds(t *testing.T) {
	status, _ := os.ReadFile("testdata/status_ioq3.bin")
	info, _ := os.ReadFile("testdata/info_ioq3.bin")
	if _, err := decodeInfo(status, wire.Latin1); !errors.Is(err, errNotReply) || !errors.Is(err, wire.ErrMalformed) {
		t.Errorf("decodeInfo(statusResponse) = %v, want a not-a-reply malformed error", err)
	}
	if _, err := decodeStatus(info, wire.Latin1); !errors.Is(err, errNotReply) {
		t.Errorf("decodeStatus(infoResponse) = %v, want a not-a-reply error", err)
	}
}

// TestBots: Players counts humans wherever the server tells bots apart (its
// `bots` / `g_botplayers` keys, getinfo's g_humanplayers), and every listed
// client where it does not (ioq3's ping-0 bot lines look like LAN players).
func TestBots(t *testing.T) {
	const status, info = "\xff\xff\xff\xffstatusResponse\n", "\xff\xff\xff\xffinfoResponse\n"
	unknown := protocols.Count{}
	for _, tc := range []struct {
		name          string
		in            string
		players, bots protocols.Count
	}{
		{"status, bots key", status + `\clients\3\bots\2` + "\n1 0 \"[BOT]a\"\n2 0 \"[BOT]b\"\n3 50 \"human\"\n", protocols.Known(1), protocols.Known(2)},
		{"status, all bots", status + `\clients\2\bots\2` + "\n1 0 \"[BOT]a\"\n2 0 \"[BOT]b\"\n", protocols.Known(0), protocols.Known(2)},
		{"status, g_botplayers", status + `\g_botplayers\1` + "\n1 0 \"bot\"\n3 50 \"human\"\n", protocols.Known(1), protocols.Known(1)},
		{"status, ioq3 ping-0 lines", status + `\sv_hostname\x` + "\n1 0 \"Sarge\"\n2 0 \"Major\"\n", protocols.Known(2), unknown},
		{"status, more bots than lines", status + `\bots\5` + "\n1 0 \"a\"\n2 0 \"b\"\n", unknown, protocols.Known(5)},
		{"info, g_humanplayers", info + `\clients\4\g_humanplayers\1`, protocols.Known(1), protocols.Known(3)},
		{"info, bots key", info + `\clients\4\bots\4`, protocols.Known(0), protocols.Known(4)},
		{"info, no bot count", info + `\clients\4`, protocols.Known(4), unknown},
		{"info, more humans than clients", info + `\clients\2\g_humanplayers\3`, protocols.Known(2), unknown},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r, err := decodeLatin1([]byte(tc.in))
			prototest.NoError(t, err)
			res := r.result(true, false)
			if res.Players != tc.players || res.Bots != tc.bots {
				t.Errorf("players %+v bots %+v, want %+v %+v", res.Players, res.Bots, tc.players, tc.bots)
			}
			for _, p := range res.PlayerList {
				if p.Bot {
					t.Errorf("player %+v marked as a bot: no line tells", p)
				}
			}
		})
	}
}

// TestParseUptime: Enemy Territory's sv_uptime becomes the server's start time.
func TestParseUptime(t *testing.T) {
	for in, want := range map[string]float64{
		"12d00h09m": 12*86400 + 9*60, "3h05m": 3*3600 + 5*60, "7m": 7 * 60, "0d00h00m": 0,
		"": -1, "forever": -1, "12d": 12 * 86400, "5m3h": -1, "-1d": -1, "12d00h09mX": -1,
	} {
		got := parseUptime(in)
		if (want < 0) == got.Known || (got.Known && got != protocols.SpanSeconds(want)) {
			t.Errorf("parseUptime(%q) = %+v, want %v s", in, got, want)
		}
	}
}

func BenchmarkDecodeStatus(b *testing.B) {
	idtechtest.BenchDecode(b, decodeLatin1, func(r *reply) { r.result(true, true) },
		"testdata/status_latin1_colours.bin", "testdata/status_too_many_lines.bin")
}

func BenchmarkDecodeInfo(b *testing.B) {
	idtechtest.BenchDecode(b, decodeLatin1, func(r *reply) { r.result(false, false) }, "testdata/info_ioq3.bin")
}

// FuzzDecode checks that no datagram panics the decoder or breaks its caps and
// that everything it returns is valid UTF-8. Seeds: testdata/, and the real
// captures in ../shared when present.
func FuzzDecode(f *testing.F) {
	idtechtest.Fuzz(f, decodeLatin1, func(t *testing.T, r *reply) *protocols.Result {
		checkFuzzReply(t, r)
		return r.result(true, true)
	}, "fixtures/quake3/*.bin", "realworld/captures/*_q3-*.resp.bin")
}

// checkFuzzReply checks that the decoded pairs and lines are valid UTF-8 and
// within their own bounds.
func checkFuzzReply(t *testing.T, r *reply) {
	t.Helper()
	for _, kv := range r.Pairs {
		if !utf8.ValidString(kv.Key) || !utf8.ValidString(kv.Value) {
			t.Fatalf("invalid UTF-8 info %q", kv)
		}
	}
	for _, p := range r.Players {
		if p.NumCount > 3 || !utf8.ValidString(p.Name) || !utf8.ValidString(p.Clean) || len(p.Clean) > len(p.Name) {
			t.Fatalf("bad player %+v", p)
		}
	}
}
