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

// want is what a vector's .expected.json says: the error a bad vector fails
// with, or the echoed token, the protocol version, the ProbeLine of the Result,
// the clients and info values it must hold.
type want struct {
	prototest.HexVector
	Token       int64
	Proto, Line string
	Clients     []client
	Info        map[string]string
}

func checkResult(t *testing.T, in info, w want) {
	t.Helper()
	res := in.Result(true)
	prototest.CheckProbe(t, res, nil, nil, w.Line)
	if !slices.Equal(in.Clients, w.Clients) {
		t.Errorf("clients %+v\nwant %+v", in.Clients, w.Clients)
	}
	if len(res.PlayerList) != len(w.Clients) {
		t.Errorf("player list %+v", res.PlayerList)
	}
	for i, p := range res.PlayerList {
		c := w.Clients[i]
		if p.Name != c.Name || p.Score != protocols.Known(c.Score) || p.Bot != c.Bot || (p.Team == "player") != c.Player {
			t.Errorf("player %d: %+v, want %+v", i, p, c)
		}
	}
	if info := prototest.InfoOf(res); info["protocol"] != w.Proto {
		t.Errorf("protocol %q, want %q", info["protocol"], w.Proto)
	}
	prototest.CheckInfoHas(t, res, w.Info)
}

func TestVectors(t *testing.T) {
	prototest.HexVectors(t, func(t *testing.T, b []byte, w want) {
		in, err := decodeVector(b)
		if w.Refused(t, b, err) {
			if in.Name != "" || in.Clients != nil {
				t.Errorf("partial info %+v with an error", in)
			}
			return
		}
		if in.Token != w.Token || in.Trailing != 0 {
			t.Errorf("token %d trailing %d", in.Token, in.Trailing)
		}
		checkResult(t, in, w)
	})
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

// checked is what FuzzResults checks of a decoder's answer: an error names a
// reason; at most maxClients are kept.
func checked(t *testing.T, in info, err error) *protocols.Result {
	if err != nil {
		prototest.CheckReason(t, err)
		return nil
	}
	if len(in.Clients) > maxClients {
		t.Fatalf("%d clients kept", len(in.Clients))
	}
	return in.Result(true)
}

// FuzzDecodeInfo07 feeds whole datagrams through the 0.7 header check and
// decoder (vectors use token 12345678), and the token-response parser.
func FuzzDecodeInfo07(f *testing.F) {
	prototest.FuzzResults(f, prototest.HexFiles(f), func(t *testing.T, b []byte) *protocols.Result {
		tokenResponse07(b, vectorToken)
		answers07(b, vectorToken, 42)
		payload, err := connless07(b, vectorToken)
		if err != nil {
			return nil
		}
		in, err := decodeInfo07(payload)
		return checked(t, in, err)
	})
}

func FuzzDecodeInfo06(f *testing.F) {
	prototest.FuzzResults(f, prototest.HexFiles(f), func(t *testing.T, b []byte) *protocols.Result {
		answers06(b, 7)
		in, err := decode06(b)
		return checked(t, in, err)
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
