package frostbite

import (
	"errors"
	"fmt"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/gameserver-exporter/gameserver_exporter/protocols"
	"github.com/gameserver-exporter/gameserver_exporter/protocols/prototest"
	"github.com/gameserver-exporter/gameserver_exporter/protocols/wire"
)

// decodeReply decodes one whole packet as the answer to serverInfo (the querier
// also skips packets that are not the answer).
func decodeReply(b []byte) (*protocols.Result, error) {
	p, err := decodePacket(b)
	if err != nil {
		return nil, err
	}
	if !p.response {
		return nil, fmt.Errorf("%w: a request from the server, not a response", wire.ErrMismatch)
	}
	return decodeServerInfo(p.words)
}

func vector(t testing.TB, name string) []byte { return prototest.HexFile(t, name+".hex") }

// TestVectors decodes the hand-built packets in testdata/. serverInfo counts
// players and knows no bots: the expectations hold Players as sent and Bots
// unknown (null).
func TestVectors(t *testing.T) {
	for _, name := range prototest.Names(t, ".expected.json") {
		t.Run(name, func(t *testing.T) {
			e := prototest.ReadJSON[prototest.Expected](t, filepath.Join("testdata", name+".expected.json"))
			res, err := decodeReply(vector(t, name))
			prototest.CheckExpected(t, e, res, err)
			if name == "ok_bf4" {
				prototest.CheckBots(t, res, 48, prototest.Unknown, true)
			}
		})
	}
}

// The requests are the documented packets: serverInfo with sequence 1, version
// with its own, each a client request.
func TestRequest(t *testing.T) {
	for got, hx := range map[string]string{
		string(request):        `01000000 1b000000 01000000 0a000000 "serverInfo" 00`,
		string(versionRequest): `02000000 18000000 01000000 07000000 "version" 00`,
	} {
		if want, err := prototest.ParseHex(hx); err != nil || got != string(want) {
			t.Errorf("request % x, want %s (%v)", got, hx, err)
		}
	}
	p, err := decodePacket(request)
	if err != nil || p.response || p.seq != 1 || len(p.words) != 1 || string(p.words[0]) != "serverInfo" {
		t.Errorf("%+v, %v", p, err)
	}
}

func TestEncodeDecodeRoundTrip(t *testing.T) {
	words := []string{"OK", "", "a b", strings.Repeat("x", 1000)}
	p, err := decodePacket(encodePacket(bitResponse|seqMask, words...))
	if err != nil || !p.response || p.seq != seqMask || fmt.Sprintf("%q", p.words) != fmt.Sprintf("%q", words) {
		t.Errorf("%+v, %v", p, err)
	}
}

// The word cap holds even when the size would allow more.
func TestWordCap(t *testing.T) {
	words := make([]string, maxWords+1)
	if _, err := decodePacket(encodePacket(bitResponse|1, words...)); !errors.Is(err, wire.ErrMalformed) {
		t.Errorf("%d words: err = %v", len(words), err)
	}
}

// A hostile status word is quoted, never printed raw into logs; a server name
// that is not UTF-8 is the Windows code page the admin typed it in:
// Windows-1252, its 0x80-0x9F marks included.
func TestDecodeServerInfoWords(t *testing.T) {
	_, err := decodeServerInfo([][]byte{[]byte("\x1b[31mBad\n\xff")})
	if msg := err.Error(); !errors.Is(err, wire.ErrServer) || strings.Contains(msg, "\x1b") || strings.Contains(msg, "\n") {
		t.Errorf("err = %q", err)
	}
	res, err := decodeServerInfo([][]byte{[]byte("OK"), prototest.MafiaName, []byte("3"), []byte("64"), []byte("ConquestLarge0"), []byte("MP_Subway")})
	if err != nil || res.Name != prototest.MafiaNameText {
		t.Errorf("name %v %v, want %q", res, err, prototest.MafiaNameText)
	}
}

// TestDecodePlayers decodes the listPlayers answers in testdata/players_*.hex:
// name, score, ping and team wherever the layout has them (the -1 a spectator
// sends leaves that value unknown, team 0 is none); a refusal quotes the server's
// word, a block whose counts the values do not fill is malformed.
func TestDecodePlayers(t *testing.T) {
	for name, want := range map[string]string{
		"players_bf4":            `["Sgt_Example" 2350 34 "1"] ["TabletCommander" 800 61 "2"]`,
		"players_bc2":            `["Hawk" 950 48 "1"] ["Owl" 0 112 "2"]`,
		"players_bf3_spectator":  `["Spectator_One" 0 ? ""]`,
		"players_login_required": `server_error: listPlayers: "LogInRequired"`,
		"players_count_lie":      `malformed: listPlayers says "3" players of 2 fields, and sends 4 values`,
		"players_no_name":        `malformed: listPlayers fields without name`,
	} {
		if got := prototest.PlayersText(decodePlayerPacket(vector(t, name))); got != want {
			t.Errorf("%s: %s, want %s", name, got, want)
		}
	}
	// A count past the words is refused before it sizes anything: 2^59+1
	// players of 32 fields overflow to the 32 values sent.
	words := append([][]byte{[]byte("OK"), []byte("32")}, slices.Repeat([][]byte{[]byte("name")}, 32)...)
	words = append(append(words, []byte("576460752303423489")), slices.Repeat([][]byte{[]byte("x")}, 32)...)
	if _, err := decodePlayers(words); !errors.Is(err, wire.ErrMalformed) {
		t.Errorf("huge count: err = %v", err)
	}
}

// decodePlayerPacket decodes one whole packet as the answer to listPlayers.
func decodePlayerPacket(b []byte) ([]protocols.Player, error) {
	p, err := decodePacket(b)
	if err != nil {
		return nil, err
	}
	return decodePlayers(p.words)
}
