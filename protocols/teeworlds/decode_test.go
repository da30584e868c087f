package teeworlds

import (
	"errors"
	"slices"
	"strings"
	"testing"

	"github.com/gameserver-exporter/gameserver_exporter/protocols"
	"github.com/gameserver-exporter/gameserver_exporter/protocols/prototest"
	"github.com/gameserver-exporter/gameserver_exporter/protocols/wire"
)

// vectorToken is "our" 0.7 token in the v07_* vectors.
const vectorToken = 0x12345678

// decodeVector decodes a whole datagram of either version.
func decodeVector(b []byte) (info, error) {
	if strings.HasPrefix(string(b), string(connlessHeader06)) {
		return decode06(b)
	}
	payload, err := connless07(b, vectorToken)
	if err != nil {
		return info{}, err
	}
	return decodeInfo07(payload)
}

// want is a vector's protocol version, the ProbeLine of its Result, its
// clients and info values it must hold.
type want struct {
	proto, line string
	clients     []client
	info        map[string]string
}

var goodVectors = []struct {
	file  string
	token int64
	want  want
}{
	{"v07_empty.hex", 42, want{proto: "0.7", line: `"RealWorld-like Teeworlds" "dm1" "DM" "0.7.5" 0/12 bots 0 pw 1 [] rules - info 12 partial []`,
		info: map[string]string{"max_players": "8", "skill_level": "1", "hostname": ""}}},
	{"v07_players.hex", 0x123456, want{proto: "0.7", line: `"Tee Arena" "ctf5" "CTF" "0.7.5" 3/64 bots 1 pw 2 [nameless tee Watcher Bot Ünïcödé ☃] rules - info 12 partial []`,
		clients: []client{
			{Name: "nameless tee", Clan: "clan", Country: 276, Score: 150, Player: true},
			{Name: "Watcher", Country: -1},
			{Name: "Bot", Country: -1, Score: 7, Player: true, Bot: true},
			{Name: "Ünïcödé ☃", Clan: "ÄÖ", Country: 840, Score: -1000, Player: true},
		}, info: map[string]string{"num_players": "3", "max_players": "16", "hostname": "tee.example.org", "skill_level": "2"}}},
	{"v06_players.hex", 7, want{proto: "0.6", line: `"Fake 0.6 Server" "ctf2" "CTF" "0.6.4" 3/16 bots ? pw 2 [Alice Bob Spec] rules - info 10 partial []`,
		clients: []client{
			{Name: "Alice", Clan: "clanA", Country: 276, Score: 12, Player: true},
			{Name: "Bob", Country: -1, Score: -5, Player: true},
			{Name: "Spec"},
		}, info: map[string]string{"num_players": "2", "max_players": "16", "flags": "1"}}},
	{"v06_empty.hex", 200, want{proto: "0.6", line: `"DDNet-like" "Tutorial" "DDraceNetwork" "0.6.4, 16.4" 0/64 bots ? pw 1 [] rules - info 10 partial []`}},
}

func checkResult(t *testing.T, in info, w want) {
	t.Helper()
	res := in.Result(true)
	prototest.CheckProbe(t, res, nil, nil, w.line)
	if !slices.Equal(in.Clients, w.clients) {
		t.Errorf("clients %+v\nwant %+v", in.Clients, w.clients)
	}
	if len(res.PlayerList) != len(w.clients) {
		t.Errorf("player list %+v", res.PlayerList)
	}
	for i, p := range res.PlayerList {
		c := w.clients[i]
		if p.Name != c.Name || p.Score != protocols.Known(c.Score) || p.Bot != c.Bot || (p.Team == "player") != c.Player {
			t.Errorf("player %d: %+v, want %+v", i, p, c)
		}
	}
	if info := prototest.InfoOf(res); info["protocol"] != w.proto {
		t.Errorf("protocol %q, want %q", info["protocol"], w.proto)
	}
	prototest.CheckInfoHas(t, res, w.info)
}

func TestVectors(t *testing.T) {
	for _, tc := range goodVectors {
		t.Run(tc.file, func(t *testing.T) {
			in, err := decodeVector(prototest.HexFile(t, tc.file))
			if err != nil {
				t.Fatal(err)
			}
			if in.Token != tc.token || in.Trailing != 0 {
				t.Errorf("token %d trailing %d", in.Token, in.Trailing)
			}
			checkResult(t, in, tc.want)
		})
	}
}

func TestVectorErrors(t *testing.T) {
	for file, want := range map[string]error{
		"v07_bad_truncated.hex":  wire.ErrTruncated,
		"v07_bad_client_cut.hex": wire.ErrTruncated,
		"v07_bad_long_int.hex":   wire.ErrMalformed,
		"v07_bad_no_nul.hex":     wire.ErrTruncated,
		"v06_bad_number.hex":     wire.ErrMalformed,
		"v06_bad_truncated.hex":  wire.ErrTruncated,
		"tok07_response.hex":     wire.ErrMalformed, // a control packet, not info
	} {
		t.Run(file, func(t *testing.T) {
			in, err := decodeVector(prototest.HexFile(t, file))
			if !errors.Is(err, want) {
				t.Fatalf("err = %v, want %v", err, want)
			}
			if in.Name != "" || in.Clients != nil {
				t.Errorf("partial info %+v with an error", in)
			}
		})
	}
}

func TestTokenExchange(t *testing.T) {
	resp := prototest.HexFile(t, "tok07_response.hex")
	server, err := tokenResponse07(resp, vectorToken)
	if err != nil || server != 0x0e724c45 {
		t.Fatalf("%08x %v", server, err)
	}
	if _, err := tokenResponse07(resp, 1); !errors.Is(err, wire.ErrMismatch) {
		t.Errorf("other token: %v", err)
	}
	for _, bad := range [][]byte{resp[:11], prototest.HexFile(t, "v07_empty.hex"), append([]byte{0x00}, resp[1:]...)} {
		if _, err := tokenResponse07(bad, vectorToken); !errors.Is(err, wire.ErrMalformed) {
			t.Errorf("% x: %v", bad, err)
		}
	}
	req := tokenRequest07(vectorToken)
	if len(req) != 520 || string(req[:12]) != "\x04\x00\x00\xff\xff\xff\xff\x05\x12\x34\x56\x78" {
		t.Errorf("token request % x", req[:16])
	}
	if got := infoRequest07(0x0e724c45, vectorToken, 42); string(got) != "\x21\x0e\x72\x4c\x45\x12\x34\x56\x78\xff\xff\xff\xffgie3\x2a" {
		t.Errorf("info request % x", got)
	}
	if _, err := connless07(prototest.HexFile(t, "v07_empty.hex"), 7); !errors.Is(err, wire.ErrMismatch) {
		t.Errorf("connless for another token: %v", err)
	}
}

// The request qstat -tees sends (and the capture tool recorded) is ours with
// token 0; the 0.7 server did not answer it.
func TestRealCapture06Request(t *testing.T) {
	b := prototest.Capture(t, "teeworlds_teeworlds_teeworlds06-gie3.req.bin")
	if string(b) != string(infoRequest06(0)) {
		t.Errorf("InfoRequest06(0) = % x, capture % x", infoRequest06(0), b)
	}
}

func TestPackedInt(t *testing.T) {
	for _, v := range []int32{0, 1, 63, 64, -1, -64, -65, 276, 1 << 20, 0x7FFFFFFF, -0x80000000} {
		b := appendInt(nil, v)
		p := reader{r: wire.NewReader(b)}
		if got := p.int("v"); got != int64(v) || p.r.Err() != nil || p.r.Len() != 0 {
			t.Errorf("%d: % x -> %d %v", v, b, got, p.r.Err())
		}
	}
}

// TestBotsOverClients: 0.7 flags each listed bot (client flag 2), so Players
// counts the clients less the bots; 0.6 has no flag: every client counts and
// bots are unknown (the vectors' probe lines pin both, TestVectors). More
// flagged bots than the client count leave Players unknown rather than negative.
func TestBotsOverClients(t *testing.T) {
	in := info{Protocol: version07, NumClients: 1, Clients: []client{{Name: "a", Bot: true}, {Name: "b", Bot: true}}}
	prototest.CheckBots(t, in.Result(false), prototest.Unknown, 2, false)
}

func seed(f *testing.F) {
	for _, b := range prototest.HexFiles(f) {
		f.Add(b)
	}
}

func check(t *testing.T, in info, err error) {
	if err != nil {
		if r := wire.Reason(err); r == "other" || r == "" {
			t.Fatalf("error without a reason: %v", err)
		}
		return
	}
	if len(in.Clients) > maxClients {
		t.Fatalf("%d clients kept", len(in.Clients))
	}
	prototest.CheckUTF8(t, in.Result(true))
}

// FuzzDecodeInfo07 feeds whole datagrams through the 0.7 header check and
// decoder (vectors use token 12345678), and the token-response parser.
func FuzzDecodeInfo07(f *testing.F) {
	seed(f)
	f.Fuzz(func(t *testing.T, b []byte) {
		tokenResponse07(b, vectorToken)
		answers07(b, vectorToken, 42)
		payload, err := connless07(b, vectorToken)
		if err != nil {
			return
		}
		in, err := decodeInfo07(payload)
		check(t, in, err)
	})
}

func FuzzDecodeInfo06(f *testing.F) {
	seed(f)
	f.Fuzz(func(t *testing.T, b []byte) {
		answers06(b, 7)
		in, err := decode06(b)
		check(t, in, err)
	})
}

func BenchmarkDecodeInfo07(b *testing.B) {
	payload, _ := connless07(prototest.HexFile(b, "v07_players.hex"), vectorToken)
	prototest.DecodeBench(b, payload, func(v []byte) error {
		in, err := decodeInfo07(v)
		if err == nil {
			_ = in.Result(true)
		}
		return err
	})
}

func BenchmarkDecodeInfo06(b *testing.B) {
	prototest.DecodeBench(b, prototest.HexFile(b, "v06_players.hex"), func(v []byte) error {
		_, err := decode06(v)
		return err
	})
}
