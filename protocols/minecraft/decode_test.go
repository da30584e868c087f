package minecraft

import (
	"bufio"
	"bytes"
	"encoding/hex"
	"errors"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/gameserver-exporter/gameserver_exporter/protocols"
	"github.com/gameserver-exporter/gameserver_exporter/protocols/internal/mctext"
	"github.com/gameserver-exporter/gameserver_exporter/protocols/prototest"
	"github.com/gameserver-exporter/gameserver_exporter/protocols/wire"
)

// want is what a vector decodes to. Counts of -1 are "not reported".
type want struct {
	format, name, version string
	protocol              *int64
	online, max           int64
	sample                []string
	secure, modded        protocols.Flag
	loader                string
	mods, trailing        int
	pack                  string // "name/version/source" of the BCC modpack, "" for none
	game                  string // Result.Game when not "Minecraft"
	warnings              int    // at least this many
	pong                  string // "ok", "mismatch", "" when the server sends none
	err                   string // failure reason of the status decode
	msg                   string // text the error must contain
}

func proto(n int64) *int64 { return &n }

var vectors = map[string]want{
	"slp_string_motd.hex": {format: formatSLP, name: "A Minecraft Server second line", version: "1.8.9", protocol: proto(47),
		online: 2, max: 20, sample: []string{"Notch", "jeb_"}, pong: "ok"},
	"slp_chat_component.hex": {format: formatSLP, name: "Hello World and friends 42", version: "Paper 1.20.4", protocol: proto(765),
		online: 1, max: 100, sample: []string{"Alice"}, secure: protocols.FlagTrue, pong: "ok"},
	"slp_forge_modinfo.hex": {format: formatSLP, name: "A Forge server", version: "1.12.2", protocol: proto(340),
		online: 0, max: 10, sample: []string{}, modded: protocols.FlagTrue, loader: "FML", mods: 4},
	"slp_forgedata.hex": {format: formatSLP, name: "Modded Sky", version: "1.18.2", protocol: proto(758),
		online: 3, max: 8, sample: []string{}, modded: protocols.FlagTrue, loader: "forge", mods: 2, pong: "ok"},
	"slp_frame_length_ff.hex": {format: formatSLP, name: "Padded", version: "1.21", protocol: proto(767),
		online: 1, max: 5, sample: []string{}, pong: "ok"},
	"slp_trailing_bcc.hex": {format: formatSLP, name: "BCC", version: "1.19.2", protocol: proto(760),
		online: 0, max: 4, sample: []string{}, trailing: 16, modded: protocols.FlagTrue, pack: "//second_string", pong: "ok"},
	"slp_bcc_second_string.hex": {format: formatSLP, name: "Pack server", version: "1.20.1", protocol: proto(763),
		online: 2, max: 20, modded: protocols.FlagTrue, loader: "forge", mods: 2, trailing: 138,
		pack: "Example Pack: Extended Edition/1.4.2/second_string", game: "Example Pack: Extended Edition", pong: "ok"},
	"slp_bcc_betterstatus.hex": {format: formatSLP, name: "Fabric pack", version: "1.21.4", protocol: proto(769),
		online: 1, max: 10, sample: []string{"Steve"}, secure: protocols.FlagFalse, modded: protocols.FlagTrue,
		pack: "Example Fabric Pack/3.0.1/betterStatus", game: "Example Fabric Pack", pong: "ok"},
	"slp_bcc_modpackdata.hex": {format: formatSLP, name: "Old pack", version: "1.18.2", protocol: proto(758),
		online: 0, max: 8, modded: protocols.FlagTrue, pack: "Old Pack/2.1/modpackData", game: "Old Pack", pong: "ok"},
	"slp_invalid_utf8.hex": {format: formatSLP, name: "caf\uFFFD \uFFFD", version: "1.16\uFFFD", protocol: proto(735),
		online: 0, max: 20, sample: []string{}, pong: "ok"},
	"slp_oddities.hex": {format: formatSLP, version: "Maintenance", online: -1, max: 20, warnings: 3, pong: "ok"},
	"slp_no_players.hex": {format: formatSLP, version: "Velocity 3.3.0-SNAPSHOT", protocol: proto(-1),
		online: -1, max: -1, pong: "ok"},
	"slp_pong_mismatch.hex": {format: formatSLP, name: "x", version: "1.21", protocol: proto(767),
		online: 0, max: 1, sample: []string{}, pong: "mismatch"},
	"legacy_14_kick.hex": {format: formatLegacy14, name: "A Paper server", version: "1.20.4", protocol: proto(127), online: 3, max: 50},
	"legacy_beta.hex":    {format: formatLegacyBeta, name: "Old Beta Server", online: 4, max: 16},
	"legacy_surrogates.hex": {format: formatLegacy14, name: "Caf\u00e9 \U0001F600 \uFFFD!", version: "1.6.4", protocol: proto(78),
		online: 0, max: 10},
	"legacy_kick_message.hex":      {err: "server_error", msg: `"Outdated server!"`},
	"bad_varint_6_bytes.hex":       {err: "malformed", msg: "longer than 5 bytes"},
	"bad_length_max.hex":           {err: "too_large", msg: "2147483647"},
	"bad_length_negative.hex":      {err: "malformed", msg: "frame length -1"},
	"bad_length_zero.hex":          {err: "malformed", msg: "frame length 0"},
	"bad_packet_id.hex":            {err: "malformed", msg: "packet id 0x1"},
	"bad_json_length.hex":          {err: "truncated", msg: "JSON string length 127"},
	"bad_json_length_negative.hex": {err: "malformed", msg: "JSON string length -1"},
	"bad_frame_truncated.hex":      {err: "truncated", msg: "frame of 114 bytes"},
	"bad_varint_truncated.hex":     {err: "truncated", msg: "frame length VarInt"},
	"bad_json_array.hex":           {err: "malformed", msg: "not an object"},
	"bad_json_syntax.hex":          {err: "malformed", msg: "status JSON"},
	"bad_empty.hex":                {err: "truncated", msg: "before any reply"},
	"bad_legacy_truncated.hex":     {err: "truncated", msg: "16 code units"},
	"bad_legacy_lone_ff.hex":       {err: "truncated", msg: "legacy kick header"},
	"bad_legacy_fields.hex":        {err: "malformed", msg: "4 fields"},
	"bad_legacy_counts.hex":        {err: "malformed", msg: `"many"`},
}

// TestVectors decodes the server side of every vector in testdata/ and checks
// that the client side is what this package sends.
func TestVectors(t *testing.T) {
	files, _ := filepath.Glob("testdata/*.hex")
	if len(files) != len(vectors) {
		t.Errorf("%d vectors in testdata/, %d in the table", len(files), len(vectors))
	}
	for _, f := range files {
		name := filepath.Base(f)
		t.Run(name, func(t *testing.T) {
			w, ok := vectors[name]
			if !ok {
				t.Fatal("no expectation")
			}
			segs := loadExchange(t, name)
			checkClientSide(t, side(segs, true), w)
			r := bufio.NewReader(bytes.NewReader(side(segs, false)))
			st, err := readResponse(r)
			if w.err != "" {
				if got := wire.Reason(err); got != w.err || !strings.Contains(err.Error(), w.msg) {
					t.Fatalf("error %v (reason %q), want %q containing %q", err, got, w.err, w.msg)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			checkStatus(t, st, w)
			if w.pong == "" {
				return
			}
			id, data, err := readPacket(r, maxPong)
			if err == nil {
				err = decodePong(id, data, vectorPayload)
			}
			switch {
			case w.pong == "ok" && err != nil:
				t.Errorf("pong: %v", err)
			case w.pong == "mismatch" && !errors.Is(err, wire.ErrMismatch):
				t.Errorf("pong: %v, want a mismatch", err)
			}
			if rest, _ := r.Peek(1); len(rest) > 0 {
				t.Error("bytes left after the exchange")
			}
		})
	}
}

// checkClientSide compares a vector's client bytes with what the querier sends
// to localhost:25565 with protocol -1 and, when the server answers it, the
// ping with the vectors' payload.
func checkClientSide(t *testing.T, client []byte, w want) {
	t.Helper()
	if len(client) == 0 {
		return
	}
	var exp []byte
	if bytes.HasPrefix(client, []byte(legacyPing)) {
		exp = []byte(legacyPing)
	} else {
		exp = append(handshake("localhost", 25565, -1), statusRequest...)
		if w.pong != "" {
			exp = append(exp, pingRequest(vectorPayload)...)
		}
	}
	if !bytes.Equal(client, exp) {
		t.Errorf("client bytes\n% x\nwant\n% x", client, exp)
	}
}

func checkStatus(t *testing.T, st status, w want) {
	t.Helper()
	if st.Format != w.format || st.MOTD != w.name || st.VersionName != w.version {
		t.Errorf("format %q name %q version %q, want %q %q %q", st.Format, st.MOTD, st.VersionName, w.format, w.name, w.version)
	}
	if w.protocol == nil && st.HasProtocol || w.protocol != nil && (!st.HasProtocol || st.Protocol != *w.protocol) {
		t.Errorf("protocol %d (%v), want %v", st.Protocol, st.HasProtocol, w.protocol)
	}
	checkCount(t, "online", st.Online, w.online)
	checkCount(t, "max", st.Max, w.max)
	if w.format == formatSLP && w.sample == nil {
		w.sample = []string{}
	}
	if w.format == formatSLP && st.Sample == nil {
		st.Sample = []string{}
	}
	if !slices.Equal(st.Sample, w.sample) {
		t.Errorf("sample %q, want %q", st.Sample, w.sample)
	}
	if st.SecureChat != w.secure || st.Modded != w.modded || st.ModLoader != w.loader || st.Mods != w.mods || st.Trailing != w.trailing {
		t.Errorf("secure %v modded %v loader %q mods %d trailing %d, want %v %v %q %d %d",
			st.SecureChat, st.Modded, st.ModLoader, st.Mods, st.Trailing, w.secure, w.modded, w.loader, w.mods, w.trailing)
	}
	var pack string
	if st.Pack != nil {
		pack = st.Pack.Name + "/" + st.Pack.Version + "/" + st.Pack.Source
	}
	if pack != w.pack {
		t.Errorf("modpack %q, want %q", pack, w.pack)
	}
	if w.game == "" {
		w.game = "Minecraft"
	}
	if game := st.Result(false).Game; game != w.game {
		t.Errorf("game %q, want %q", game, w.game)
	}
	if len(st.Warnings) < w.warnings || w.warnings == 0 && len(st.Warnings) > 0 {
		t.Errorf("warnings %q, want at least %d", st.Warnings, w.warnings)
	}
}

func checkCount(t *testing.T, field string, c protocols.Count, want int64) {
	t.Helper()
	if want < 0 && c.Known || want >= 0 && c != protocols.Known(want) {
		t.Errorf("%s = %+v, want %d", field, c, want)
	}
}

func TestVarInt(t *testing.T) {
	// The spec's examples.
	for v, enc := range map[int32]string{0: "00", 1: "01", 127: "7f", 128: "8001", 255: "ff01", 25565: "ddc701", -1: "ffffffff0f",
		2147483647: "ffffffff07", -2147483648: "8080808008"} {
		b := appendVarInt(nil, v)
		if got := hex.EncodeToString(b); got != enc {
			t.Errorf("AppendVarInt(%d) = %s, want %s", v, got, enc)
		}
		got, err := readVarInt(bytes.NewReader(b), "v")
		if err != nil || got != v {
			t.Errorf("ReadVarInt(%s) = %d, %v", enc, got, err)
		}
	}
	// Like the vanilla reader, bits beyond 32 in the 5th byte are dropped.
	if v, err := readVarInt(bytes.NewReader([]byte{0xFF, 0xFF, 0xFF, 0xFF, 0x7F}), "v"); err != nil || v != -1 {
		t.Errorf("5th byte with high bits: %d, %v", v, err)
	}
	if _, err := readVarInt(bytes.NewReader([]byte{0x80, 0x80, 0x80, 0x80, 0x80, 0x00}), "v"); !errors.Is(err, wire.ErrMalformed) {
		t.Errorf("6 bytes: %v", err)
	}
	if _, err := readVarInt(bytes.NewReader(nil), "v"); !errors.Is(err, wire.ErrTruncated) {
		t.Errorf("empty: %v", err)
	}
}

func TestHandshakeHosts(t *testing.T) {
	for _, host := range []string{"", "mc.example.com", "::1", strings.Repeat("h", 255), "mc.example.com\x00FML3\x00"} {
		h, err := readHandshake(bytes.NewReader(handshake(host, 19132, 767)))
		if err != nil || h != (sentHandshake{Version: 767, Host: host, Port: 19132, Next: 1}) {
			t.Errorf("%q: %+v, %v", host, h, err)
		}
	}
}

func TestStripCodes(t *testing.T) {
	// What mctext's own test does not: a multi-byte code character.
	for in, want := range map[string]string{
		"§x§f§f§0§0§0§0Hex red":    "Hex red", // BungeeCord hex colour
		"multi\u00a7\u00e9byte §é": "multibyte ",
	} {
		if got := mctext.StripCodes(in); got != want {
			t.Errorf("mctext.StripCodes(%q) = %q, want %q", in, got, want)
		}
	}
	if got := oneLine("  §  centred\r\n   line two\t "); got != "§ centred line two" {
		t.Errorf("oneLine = %q", got)
	}
}

func TestDescriptionShapes(t *testing.T) {
	for js, want := range map[string]string{
		`"plain"`: "plain",
		`{"text":"a","extra":["b",{"text":"c","extra":[{"text":"d"}]}]}`: "abcd",
		`[{"text":"first "},"second ",{"text":"third"}]`:                 "first second third",
		`{"translate":"disconnect.x","with":["y"]}`:                      "",
		`{"text":true,"extra":[1.5,null,{}]}`:                            "true1.5",
		`{"text":"§6Line 1\n§7Line 2"}`:                                  "Line 1 Line 2",
		`42`:                                                             "42",
		`{"extra":"not an array","text":"t"}`:                            "t",
	} {
		st, err := parseStatusJSON([]byte(`{"description":` + js + `}`))
		if err != nil || st.MOTD != want || len(st.Warnings) != 0 {
			t.Errorf("%s: %q, %v %q; want %q", js, st.MOTD, err, st.Warnings, want)
		}
	}
}

// A component nested past the cap is cut off with a warning, never recursed into.
func TestDescriptionDepthCap(t *testing.T) {
	js := `{"description":` + strings.Repeat(`{"text":"a","extra":[`, 1000) + strings.Repeat(`]}`, 1000) + `}`
	st, err := parseStatusJSON([]byte(js))
	if err != nil {
		t.Fatal(err)
	}
	if n := strings.Count(st.MOTD, "a"); n == 0 || n > maxDescriptionDepth || len(st.Warnings) != 1 {
		t.Errorf("%d levels flattened, warnings %q", n, st.Warnings)
	}
}

func TestSampleCap(t *testing.T) {
	entry := `{"name":"p","id":"5c1f5a2e-7b1e-4a4e-9d0e-2f6b3c9a1d11"},`
	js := `{"players":{"online":1000,"max":1000,"sample":[` + strings.Repeat(entry, 1000) + `{"name":"last","id":"x"}]}}`
	st, err := parseStatusJSON([]byte(js))
	if err != nil || len(st.Sample) != maxSample || st.Online != protocols.Known(1000) {
		t.Errorf("%d sample entries, online %+v, %v", len(st.Sample), st.Online, err)
	}
}

func TestResult(t *testing.T) {
	segs := loadExchange(t, "slp_chat_component.hex")
	st, err := readResponse(bufio.NewReader(bytes.NewReader(side(segs, false))))
	if err != nil {
		t.Fatal(err)
	}
	res := st.Result(true)
	if res.Game != "Minecraft" || res.Name != "Hello World and friends 42" || res.Version != "Paper 1.20.4" ||
		res.MaxPlayers != protocols.Known(100) || res.Map != "" || len(res.PlayerList) != 1 || res.PlayerList[0].Name != "Alice" {
		t.Errorf("result %+v", res)
	}
	prototest.CheckBots(t, res, 1, prototest.Unknown, true) // online players; no bots known
	prototest.CheckInfoHas(t, res, map[string]string{"format": "slp", "protocol": "765", "version": "Paper 1.20.4", "players_sample": "1", "enforces_secure_chat": "true"})
	if st.Result(false).PlayerList != nil {
		t.Error("player list without Settings.Players")
	}
	legacy, _ := decodeLegacyKick(legacyKick("§1\x00127\x001.21\x00m\x001\x002")[3:])
	if res := legacy.Result(true); res.PlayerList != nil || res.Name != "m" || res.Modded != protocols.FlagUnknown {
		t.Errorf("legacy result %+v", res)
	}
}
