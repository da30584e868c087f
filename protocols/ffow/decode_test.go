package ffow

import (
	"bytes"
	"reflect"
	"testing"
	"unicode/utf8"

	"github.com/gameserver-exporter/gameserver_exporter/protocols"
	"github.com/gameserver-exporter/gameserver_exporter/protocols/prototest"
	"github.com/gameserver-exporter/gameserver_exporter/protocols/wire"
)

func vec(t testing.TB, name string) []byte { return prototest.HexFile(t, name+".hex") }

func TestRequests(t *testing.T) {
	// qstat's fl.c FL_INFO and FL_GETCHALLENGE; GameQ's info packet.
	for got, want := range map[string]string{
		string(infoRequest):         "ffffffff 46 4c5351",
		string(getChallengeRequest): "ffffffff 57",
	} {
		w, _ := prototest.ParseHex(want)
		if got != string(w) {
			t.Errorf("request % x, want %s", got, want)
		}
	}
}

// want is what a testdata vector's .expected.json says the decoder of its type
// reads: an info's ProbeLine and info values, a player list with the first
// player's profile id, or rules; or the error it fails with. The LSQ info has
// no bot count and the player record no bot mark (qstat, gamedig and GameQ
// read none): Players is the count as sent, Bots unknown, no player marked.
type want struct {
	prototest.HexVector
	Line    string
	Info    map[string]string
	Players []protocols.Player
	Profile uint32
	Rules   []protocols.KV
}

// TestVectors decodes each vector with its type's decoder; the decoders of the
// other types refuse a good one as malformed.
func TestVectors(t *testing.T) {
	decoders := map[byte]func([]byte) error{0x49: infoErr, 0x44: playersErr, 0x45: rulesErr}
	prototest.HexVectors(t, func(t *testing.T, b []byte, w want) {
		var got want
		var err error
		switch b[4] {
		case 0x44:
			var ps []player
			if ps, err = decodePlayers(b); err == nil {
				got.Players, got.Profile = playerList(ps), ps[0].Profile
			}
		case 0x45:
			got.Rules, err = decodeRules(b)
		default:
			var in *info
			if in, err = decodeInfo(b); err == nil {
				res := in.result()
				got.Line, got.Info = prototest.ProbeLine(res, nil, nil), prototest.InfoOf(res)
				prototest.CheckUTF8(t, res)
			}
		}
		if w.Refused(t, b, err) {
			return
		}
		for typ, decode := range decoders {
			if typ != b[4] && wire.Reason(decode(b)) != "malformed" {
				t.Errorf("the %c decoder: %v, want malformed", typ, decode(b))
			}
		}
		got.HexVector = w.HexVector
		if !reflect.DeepEqual(got, w) {
			t.Errorf("got  %+v\nwant %+v", got, w)
		}
	})
	for _, short := range [][]byte{nil, {0xff, 0xff, 0xff}} {
		if err := infoErr(short); wire.Reason(err) != "truncated" {
			t.Errorf("% x: %v", short, err)
		}
	}
}

func infoErr(b []byte) error    { _, err := decodeInfo(b); return err }
func playersErr(b []byte) error { _, err := decodePlayers(b); return err }
func rulesErr(b []byte) error   { _, err := decodeRules(b); return err }

// TestDecodeWindows1252: FFOW is a Windows game: a name that is not UTF-8 is
// Windows-1252, its 0x80-0x9F marks included.
func TestDecodeWindows1252(t *testing.T) {
	b := bytes.Replace(vec(t, "info"), []byte("FFOW Test Server"), prototest.MafiaName, 1)
	in, err := decodeInfo(b)
	prototest.NoError(t, err)
	if res := in.result(); res.Name != prototest.MafiaNameText {
		t.Errorf("name %q, want %q", res.Name, prototest.MafiaNameText)
	}
}

// FuzzDecode: no reply panics a decoder, every error names one reason, and what
// decodes has UTF-8 strings.
func FuzzDecode(f *testing.F) {
	prototest.SeedHex(f)
	f.Fuzz(func(t *testing.T, b []byte) {
		if in, err := decodeInfo(b); err != nil {
			prototest.CheckReason(t, err)
		} else {
			prototest.CheckUTF8(t, in.result())
		}
		if ps, err := decodePlayers(b); err != nil {
			prototest.CheckReason(t, err)
		} else {
			for _, p := range playerList(ps) {
				if !utf8.ValidString(p.Name) || p.Duration < 0 {
					t.Fatalf("%+v", p)
				}
			}
		}
		if rs, err := decodeRules(b); err != nil {
			prototest.CheckReason(t, err)
		} else if len(rs) > 4096 {
			t.Fatalf("%d rules", len(rs))
		}
	})
}

func BenchmarkDecodeInfo(b *testing.B) {
	prototest.DecodeBench(b, vec(b, "info"), prototest.Decoded(decodeInfo, (*info).result).Err)
}
