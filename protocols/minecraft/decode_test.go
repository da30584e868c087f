package minecraft

import (
	"bufio"
	"bytes"
	"encoding/binary"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"unicode/utf16"
	"unicode/utf8"

	"github.com/gameserver-exporter/gameserver_exporter/protocols"
	"github.com/gameserver-exporter/gameserver_exporter/protocols/prototest"
	"github.com/gameserver-exporter/gameserver_exporter/protocols/wire"
)

// want is a testdata/NAME.expected.json: what the server side of NAME.hex
// decodes to; a count, a protocol or a flag that is null is not reported.
type want struct {
	Format, Name, Version string
	Protocol, Online, Max prototest.Opt[int64]
	Sample                []string
	SecureChat            prototest.Opt[bool] `json:"secure_chat"`
	Modded                prototest.Opt[bool]
	ModLoader             string `json:"mod_loader"`
	Mods, Trailing        int
	Modpack               string // "name/version/source", "" for none
	Game                  string // Result.Game when not "Minecraft"
	Warnings              int    // at least this many
	Pong                  string // "ok", "mismatch", "" when the server sends none
	Error, Message        string // the status decode's failure reason, a text its error holds
	Info                  map[string]string
}

func wantOf(t testing.TB, name string) want {
	w := prototest.ReadJSON[want](t, filepath.Join("testdata", name+".expected.json"))
	if w.Game == "" {
		w.Game = "Minecraft"
	}
	return w
}

func flagOf(o prototest.Opt[bool]) protocols.Flag {
	if o.Null {
		return protocols.FlagUnknown
	}
	return protocols.FlagOf(o.V)
}

// TestVectors decodes the server side of every vector in testdata/ and checks
// that the client side is what this package sends.
func TestVectors(t *testing.T) {
	for _, name := range prototest.Names(t, ".hex") {
		t.Run(name, func(t *testing.T) {
			w := wantOf(t, name)
			segs := loadExchange(t, name+".hex")
			checkClientSide(t, side(segs, true), w)
			r := bufio.NewReader(bytes.NewReader(side(segs, false)))
			st, err := readResponse(r)
			if w.Error != "" {
				if got := wire.Reason(err); got != w.Error || !strings.Contains(err.Error(), w.Message) {
					t.Fatalf("error %v (reason %q), want %q containing %q", err, got, w.Error, w.Message)
				}
				return
			}
			prototest.NoError(t, err)
			checkStatus(t, st, w)
			if w.Pong == "" {
				return
			}
			id, data, err := readPacket(r, maxPong)
			if err == nil {
				err = decodePong(id, data, vectorPayload)
			}
			switch {
			case w.Pong == "ok" && err != nil:
				t.Errorf("pong: %v", err)
			case w.Pong == "mismatch" && !errors.Is(err, wire.ErrMismatch):
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
		if w.Pong != "" {
			exp = append(exp, pingRequest(vectorPayload)...)
		}
	}
	if !bytes.Equal(client, exp) {
		t.Errorf("client bytes\n% x\nwant\n% x", client, exp)
	}
}

func checkStatus(t *testing.T, st status, w want) {
	t.Helper()
	if st.Format != w.Format || st.MOTD != w.Name || st.VersionName != w.Version {
		t.Errorf("format %q name %q version %q, want %q %q %q", st.Format, st.MOTD, st.VersionName, w.Format, w.Name, w.Version)
	}
	if st.HasProtocol == w.Protocol.Null || st.HasProtocol && st.Protocol != w.Protocol.V {
		t.Errorf("protocol %d (%v), want %+v", st.Protocol, st.HasProtocol, w.Protocol)
	}
	prototest.CheckCount(t, "online", st.Online, w.Online)
	prototest.CheckCount(t, "max", st.Max, w.Max)
	if w.Format == formatSLP && st.Sample == nil {
		st.Sample = []string{}
	}
	if !slices.Equal(st.Sample, w.Sample) || (st.Sample == nil) != (w.Sample == nil) {
		t.Errorf("sample %q, want %q", st.Sample, w.Sample)
	}
	if st.SecureChat != flagOf(w.SecureChat) || st.Modded != flagOf(w.Modded) || st.ModLoader != w.ModLoader || st.Mods != w.Mods || st.Trailing != w.Trailing {
		t.Errorf("secure %v modded %v loader %q mods %d trailing %d, want %+v", st.SecureChat, st.Modded, st.ModLoader, st.Mods, st.Trailing, w)
	}
	var pack string
	if st.Pack != nil {
		pack = st.Pack.Name + "/" + st.Pack.Version + "/" + st.Pack.Source
	}
	if pack != w.Modpack {
		t.Errorf("modpack %q, want %q", pack, w.Modpack)
	}
	if game := st.Result(false).Game; game != w.Game {
		t.Errorf("game %q, want %q", game, w.Game)
	}
	if len(st.Warnings) < w.Warnings || w.Warnings == 0 && len(st.Warnings) > 0 {
		t.Errorf("warnings %q, want at least %d", st.Warnings, w.Warnings)
	}
	// The Result: the sample is the player list (none from a legacy kick, none
	// without Settings.Players), the online players are humans, bots unknown.
	res := st.Result(true)
	if w.Format == formatSLP != (res.PlayerList != nil) || prototest.PlayerNames(res) != fmt.Sprint(w.Sample) ||
		st.Result(false).PlayerList != nil || res.Map != "" || res.Modded != st.Modded {
		t.Errorf("result %+v", res)
	}
	if w.Online.Null {
		w.Online.V = prototest.Unknown
	}
	prototest.CheckBots(t, res, w.Online.V, prototest.Unknown, true)
	prototest.CheckInfoHas(t, res, w.Info)
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
	for enc, want := range map[string]string{"ffffffff7f": "-1", "808080808000": "malformed", "": "truncated"} {
		b, _ := hex.DecodeString(enc)
		v, err := readVarInt(bytes.NewReader(b), "v")
		if got := fmt.Sprint(v); err != nil && wire.Reason(err) != want || err == nil && got != want {
			t.Errorf("ReadVarInt(%s) = %d, %v; want %s", enc, v, err, want)
		}
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

func TestOneLine(t *testing.T) {
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

// The caps: a component nested past maxDescriptionDepth is cut off with a
// warning, never recursed into; a sample keeps maxSample names.
func TestStatusCaps(t *testing.T) {
	deep := `{"description":` + strings.Repeat(`{"text":"a","extra":[`, 1000) + strings.Repeat(`]}`, 1000) + `}`
	st, err := parseStatusJSON([]byte(deep))
	if n := strings.Count(st.MOTD, "a"); err != nil || n == 0 || n > maxDescriptionDepth || len(st.Warnings) != 1 {
		t.Errorf("%d levels flattened, warnings %q, %v", n, st.Warnings, err)
	}
	entry := `{"name":"p","id":"5c1f5a2e-7b1e-4a4e-9d0e-2f6b3c9a1d11"},`
	st, err = parseStatusJSON([]byte(`{"players":{"online":1000,"max":1000,"sample":[` + strings.Repeat(entry, 1000) + `{"name":"last","id":"x"}]}}`))
	if err != nil || len(st.Sample) != maxSample || st.Online != protocols.Known(1000) {
		t.Errorf("%d sample entries, online %+v, %v", len(st.Sample), st.Online, err)
	}
}

// benchJSON is a typical modern status: a chat component MOTD, a sample, and a
// favicon of 8 KiB that the decoder must skip without copying.
var benchJSON = strings.Replace(statusJSON, "iVBORw0KGgo", strings.Repeat("iVBORw0KGgo", 750), 1)

func BenchmarkDecodeStatus(b *testing.B) {
	frame := statusFrame(benchJSON)
	b.SetBytes(int64(len(frame)))
	b.ReportAllocs()
	br := bytes.NewReader(frame)
	r := bufio.NewReader(br)
	for b.Loop() {
		br.Reset(frame)
		r.Reset(br)
		if _, err := readResponse(r); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkDecodeLegacy(b *testing.B) {
	prototest.DecodeBench(b, legacyKick("§1\x00127\x001.21.1\x00§aA §lPaper§r server\x0012\x00100")[3:], func(kick []byte) error {
		_, err := decodeLegacyKick(kick)
		return err
	})
}

// seeds returns the server side of every vector and, when ../shared is present,
// the fixtures (legacy payloads framed as a kick).
func seeds(f *testing.F) [][]byte {
	var out [][]byte
	for _, name := range prototest.Names(f, ".hex") {
		out = append(out, side(loadExchange(f, name+".hex"), false))
	}
	for _, b := range prototest.SharedFiles("fixtures/minecraft/*.bin") {
		out = append(out, b, append([]byte{0xFF, 0, byte(len(b) / 2)}, b...))
	}
	return out
}

// fuzzStatus fuzzes decode from seeds (prototest.FuzzResults): an error names
// its reason, a status is valid UTF-8 with sane counts and a capped sample.
func fuzzStatus(f *testing.F, seeds [][]byte, decode func([]byte) (status, error)) {
	prototest.FuzzResults(f, seeds, func(t *testing.T, b []byte) *protocols.Result {
		st, err := decode(b)
		if err != nil {
			prototest.CheckReason(t, err)
			return nil
		}
		for _, s := range st.Sample {
			if !utf8.ValidString(s) {
				t.Fatalf("invalid UTF-8 %q", s)
			}
		}
		if st.Online.Known && st.Online.Value < 0 || st.Max.Known && st.Max.Value < 0 || len(st.Sample) > maxSample {
			t.Fatalf("bad counts %+v", st)
		}
		return st.Result(true)
	})
}

// FuzzDecodePacket reads frames until the input ends: never a panic, never a
// frame over the cap, every error with a reason.
func FuzzDecodePacket(f *testing.F) {
	for _, b := range seeds(f) {
		f.Add(b)
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		r := bytes.NewReader(b)
		for range 64 {
			_, data, err := readPacket(r, 1024)
			if err != nil {
				prototest.CheckReason(t, err)
				return
			}
			if len(data) >= 1024 {
				t.Fatalf("frame data of %d bytes over the cap", len(data))
			}
		}
	})
}

// FuzzDecodeResponse runs the whole reply decoder (modern frame or legacy kick).
func FuzzDecodeResponse(f *testing.F) {
	fuzzStatus(f, seeds(f), func(b []byte) (status, error) { return readResponse(bufio.NewReader(bytes.NewReader(b))) })
}

// FuzzDecodeStatusJSON feeds the JSON decoder directly.
func FuzzDecodeStatusJSON(f *testing.F) {
	var in [][]byte
	for _, s := range []string{
		statusJSON,
		`{"description":{"text":"a","extra":["b",{"text":"c","extra":[1,true,null]}]},"players":{"online":1,"max":2,"sample":[{"name":"x","id":"y"}]}}`,
		`{"description":[{"text":"§a"},"b"],"players":{"online":"1","max":-2,"sample":{}},"version":{"name":5,"protocol":"x"}}`,
		`{"modinfo":{"type":"FML","modList":[{}]},"forgeData":{"mods":[1,2]},"isModded":true,"enforcesSecureChat":1}`,
		`{}`, `[]`, `null`, `{"description":`,
	} {
		in = append(in, []byte(s))
	}
	for _, b := range seeds(f) {
		if i := bytes.IndexByte(b, '{'); i >= 0 {
			in = append(in, b[i:])
		}
	}
	fuzzStatus(f, in, parseStatusJSON)
}

// FuzzDecodeLegacy feeds the legacy kick text decoder directly.
func FuzzDecodeLegacy(f *testing.F) {
	var in [][]byte
	for _, b := range seeds(f) {
		if len(b) > 3 && b[0] == 0xFF {
			in = append(in, b[3:])
		}
	}
	fuzzStatus(f, in, decodeLegacyKick)
}

// segment is one direction's bytes in a recorded exchange.
type segment struct {
	client bool // '>' client to server, '<' server to client
	data   []byte
}

// loadExchange reads a hand-built vector (see testdata/README.md): lines of hex
// bytes after '>' (client) or '<' (server), '#' comments. Consecutive lines of
// one direction are merged into one segment.
func loadExchange(t testing.TB, name string) []segment {
	t.Helper()
	raw := prototest.File(t, name)
	var segs []segment
	for i, line := range strings.Split(string(raw), "\n") {
		line, _, _ = strings.Cut(line, "#")
		line = strings.TrimSpace(line)
		if line == "" {
			continue
		}
		client := line[0] == '>'
		if !client && line[0] != '<' {
			t.Fatalf("%s:%d: a line starts with > or <", name, i+1)
		}
		b, err := hex.DecodeString(strings.Join(strings.Fields(line[1:]), ""))
		if err != nil {
			t.Fatalf("%s:%d: %v", name, i+1, err)
		}
		if n := len(segs); n > 0 && segs[n-1].client == client {
			segs[n-1].data = append(segs[n-1].data, b...)
		} else {
			segs = append(segs, segment{client: client, data: b})
		}
	}
	return segs
}

// side concatenates one direction of an exchange.
func side(segs []segment, client bool) []byte {
	var b []byte
	for _, s := range segs {
		if s.client == client {
			b = append(b, s.data...)
		}
	}
	return b
}

// vectorPayload is the ping payload the vectors were written with.
const vectorPayload = 1700000000000

// sentHandshake is a decoded Handshake packet, for checking what the client sent.
type sentHandshake struct {
	Version int32
	Host    string
	Port    uint16
	Next    int32
}

// readHandshake reads a Handshake packet the way a server does.
func readHandshake(r byteReader) (sentHandshake, error) {
	id, data, err := readPacket(r, 1024)
	if err != nil {
		return sentHandshake{}, err
	}
	if id != 0 {
		return sentHandshake{}, fmt.Errorf("handshake id %d", id)
	}
	br := bytes.NewReader(data)
	var h sentHandshake
	if h.Version, err = readVarInt(br, "version"); err != nil {
		return h, err
	}
	n, err := readVarInt(br, "host length")
	if err != nil || n < 0 || int(n) > br.Len() {
		return h, fmt.Errorf("host length %d: %v", n, err)
	}
	host := make([]byte, n)
	io.ReadFull(br, host)
	h.Host = string(host)
	if err := binary.Read(br, binary.BigEndian, &h.Port); err != nil {
		return h, err
	}
	if h.Next, err = readVarInt(br, "next state"); err != nil {
		return h, err
	}
	if br.Len() != 0 {
		return h, fmt.Errorf("%d bytes after the handshake", br.Len())
	}
	return h, nil
}

// readStatusRequest reads a handshake and the status request after it.
func readStatusRequest(r *bufio.Reader) (sentHandshake, error) {
	h, err := readHandshake(r)
	if err != nil {
		return h, err
	}
	if h.Next != 1 {
		return h, fmt.Errorf("next state %d", h.Next)
	}
	id, data, err := readPacket(r, 16)
	if err != nil || id != 0 || len(data) != 0 {
		return h, fmt.Errorf("status request: id %d, %d bytes, %v", id, len(data), err)
	}
	return h, nil
}

// statusFrame builds a Status Response packet around js.
func statusFrame(js string) []byte {
	s := appendVarInt([]byte{idStatus}, int32(len(js)))
	s = append(s, js...)
	return append(appendVarInt(nil, int32(len(s))), s...)
}

// legacyKick builds a 0xFF kick packet around text: its UTF-16BE code units,
// counted.
func legacyKick(text string) []byte {
	u := utf16.Encode([]rune(text))
	b := []byte{0xFF, byte(len(u) >> 8), byte(len(u))}
	for _, c := range u {
		b = binary.BigEndian.AppendUint16(b, c)
	}
	return b
}

// fixtureExpected is the part of an .expected.json this package asserts.
type fixtureExpected struct {
	Fixtures []string `json:"fixtures"`
	Expected struct {
		FrameLength int                `json:"frame_length"`
		PacketID    int32              `json:"packet_id"`
		JSONLength  int                `json:"json_length"`
		Payload     int64              `json:"payload_int64"`
		Version     int32              `json:"protocol_version"`
		Address     string             `json:"server_address"`
		Port        uint16             `json:"server_port"`
		Next        int32              `json:"next_state"`
		MOTD        string             `json:"motd"`
		Online      int64              `json:"online"`
		Max         int64              `json:"max"`
		VersionName string             `json:"version_name"`
		Protocol    int64              `json:"protocol"`
		JSON        *fixtureStatusJSON `json:"json"`
	} `json:"expected"`
}

// fixtureStatusJSON is the decoded JSON as the fixture's expectation spells it.
type fixtureStatusJSON struct {
	Description *string `json:"description"`
	Players     struct {
		Max    int64 `json:"max"`
		Online int64 `json:"online"`
	} `json:"players"`
	Version struct {
		Name     string `json:"name"`
		Protocol int64  `json:"protocol"`
	} `json:"version"`
}

// TestFixtures checks every capture in ../shared/fixtures/minecraft, read in place.
func TestFixtures(t *testing.T) {
	prototest.FixtureVectors(t, "minecraft", func(t *testing.T, name string, e fixtureExpected) {
		if len(e.Fixtures) != 1 {
			t.Fatalf("%s: %d fixtures", name, len(e.Fixtures))
		}
		b := prototest.Fixture(t, "minecraft", e.Fixtures[0])
		x := e.Expected
		switch {
		case strings.HasPrefix(name, "mcstatus_slp_status_response_"):
			fixtureStatus(t, b, x.FrameLength, x.JSONLength, x.JSON)
		case name == "mcstatus_slp_pong_response":
			id, data, err := readPacket(bytes.NewReader(b), maxPong)
			if err != nil || id != x.PacketID || len(data)+1 != x.FrameLength || b[0] != byte(x.FrameLength) {
				t.Fatalf("pong frame: id %d, %d bytes, %v", id, len(data), err)
			}
			if err := decodePong(id, data, x.Payload); err != nil {
				t.Error(err)
			}
		case strings.HasPrefix(name, "mcstatus_slp_handshake_request_"):
			// An encoder vector: build it, and read it back as a server would.
			if got := handshake(x.Address, x.Port, x.Version); !bytes.Equal(got, b) {
				t.Errorf("Handshake = % x, want % x", got, b)
			}
			h, err := readHandshake(bytes.NewReader(b))
			if err != nil || h != (sentHandshake{x.Version, x.Address, x.Port, x.Next}) || int(b[0]) != x.FrameLength {
				t.Errorf("handshake %+v, %v", h, err)
			}
		case name == "mcstatus_slp_status_request":
			if string(b) != statusRequest || x.FrameLength != 1 || x.PacketID != 0 {
				t.Errorf("statusRequest = % x, fixture % x", statusRequest, b)
			}
		case strings.HasPrefix(name, "mcstatus_legacy_kick_payload_"):
			fixtureLegacy(t, name, b, x.MOTD, x.Online, x.Max, x.VersionName, x.Protocol)
		default:
			t.Fatalf("fixture %s is not covered", name)
		}
	})
}

func fixtureStatus(t *testing.T, b []byte, frameLen, jsonLen int, want *fixtureStatusJSON) {
	t.Helper()
	if want == nil {
		t.Fatal("no json in the expectation")
	}
	n, err := readVarInt(bytes.NewReader(b), "frame length")
	if err != nil || int(n) != frameLen || len(b) != frameLen+1 || b[2] != byte(jsonLen) {
		t.Errorf("frame length %d (%v), file %d bytes; want frame %d json %d", n, err, len(b), frameLen, jsonLen)
	}
	r := bufio.NewReader(bytes.NewReader(b))
	st, err := readResponse(r)
	prototest.NoError(t, err)
	res := st.Result(true)
	wantName := ""
	if want.Description != nil {
		wantName = *want.Description
	}
	if res.Name != wantName || res.Version != want.Version.Name || st.Protocol != want.Version.Protocol || !st.HasProtocol ||
		res.Players != protocols.Known(want.Players.Online) || res.MaxPlayers != protocols.Known(want.Players.Max) {
		t.Errorf("result %+v (protocol %d), want %+v", res, st.Protocol, want)
	}
	if res.Game != "Minecraft" || len(res.PlayerList) != 0 || res.PlayerList == nil || len(st.Warnings) != 0 || st.Trailing != 0 {
		t.Errorf("game %q players %v warnings %q trailing %d", res.Game, res.PlayerList, st.Warnings, st.Trailing)
	}
	if rest, _ := r.Peek(1); len(rest) != 0 {
		t.Error("bytes left after the frame")
	}
}

// fixtureLegacy decodes a kick payload (the fixture has no 0xFF header), then
// the same payload framed as the server sends it. The b1.8 expectation's
// version "<1.4" and protocol -1 are mcstatus placeholders: the beta format
// reports neither, so the decoder leaves them unset.
func fixtureLegacy(t *testing.T, name string, b []byte, motd string, online, max int64, version string, protocol int64) {
	t.Helper()
	payload, err := decodeLegacyKick(b)
	framed, err2 := readResponse(bufio.NewReader(bytes.NewReader(append([]byte{0xFF, byte(len(b) / 2 >> 8), byte(len(b) / 2)}, b...))))
	if err != nil || err2 != nil {
		t.Fatal(err, err2)
	}
	for _, st := range []status{payload, framed} {
		if st.MOTD != motd || st.Online != protocols.Known(online) || st.Max != protocols.Known(max) {
			t.Errorf("%+v, want %q %d/%d", st, motd, online, max)
		}
		if strings.HasSuffix(name, "_b1.8") {
			if st.Format != formatLegacyBeta || st.VersionName != "" || st.HasProtocol || version != "<1.4" || protocol != -1 {
				t.Errorf("beta: %+v", st)
			}
			continue
		}
		if st.Format != formatLegacy14 || st.VersionName != version || !st.HasProtocol || st.Protocol != protocol {
			t.Errorf("1.4+: %+v, want %q %d", st, version, protocol)
		}
	}
}
