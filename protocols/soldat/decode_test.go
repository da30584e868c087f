package soldat

import (
	"slices"
	"testing"

	"github.com/gameserver-exporter/gameserver_exporter/protocols"
	"github.com/gameserver-exporter/gameserver_exporter/protocols/prototest"
	"github.com/gameserver-exporter/gameserver_exporter/protocols/wire"
)

func vec(t testing.TB, name string) []byte { return prototest.HexFile(t, name+".hex") }

// TestRecordLen pins the size of TMsg_RefreshX (packed) the layout adds up to
// (the vectors' expectations hold it too).
func TestRecordLen(t *testing.T) {
	if recordLen != 2002 {
		t.Errorf("recordLen = %d, want 2002", recordLen)
	}
}

// TestDecode decodes each record in testdata/ as its .expected.json says: the
// Result's ProbeLine, player list and info values; neither addresses nor
// hardware ids reach the result. REFRESHX gives a bot's slot no address
// (Rcon.pas fills the IP only for a HUMAN control method): Players counts the
// slots with one (spectators included), Bots the slots without, and the listed
// bots are marked.
func TestDecode(t *testing.T) {
	prototest.HexVectors(t, func(t *testing.T, b []byte, w struct {
		prototest.HexVector
		Line    string
		Players []protocols.Player
		Info    map[string]string
	}) {
		rf, err := decodeRefresh(b, wire.UTF8)
		if w.Refused(t, b, err) {
			return
		}
		res := rf.result(true)
		prototest.CheckProbe(t, res, nil, nil, w.Line)
		if !slices.Equal(res.PlayerList, w.Players) || rf.result(false).PlayerList != nil {
			t.Errorf("%+v, want %+v", res.PlayerList, w.Players)
		}
		prototest.CheckInfoHas(t, res, w.Info)
		for _, kv := range res.Info {
			if kv.Value == "203.0.113.5" || kv.Value == "ABCDEF12345" {
				t.Errorf("info exposes %v", kv)
			}
		}
		prototest.CheckUTF8(t, res)
	})
}

func TestDecodeErrors(t *testing.T) {
	good := vec(t, "refreshx_ctf")
	bad := append([]byte("REFRESHY"), good[8:]...)
	for name, c := range map[string]struct {
		b      []byte
		reason string
	}{
		"short":     {good[:100], "truncated"},
		"no header": {bad, "malformed"},
		"long":      {append(good, 0), "truncated"},
	} {
		if _, err := decodeRefresh(c.b, wire.UTF8); wire.Reason(err) != c.reason {
			t.Errorf("%s: %v, want %s", name, err, c.reason)
		}
	}
	// A name length byte past 24 reads the 24 bytes there are.
	lying := append([]byte(nil), good...)
	lying[len(header)] = 200
	rf, err := decodeRefresh(lying, wire.UTF8)
	if err != nil || len(rf.players[0].name) != nameLen {
		t.Errorf("lying name length: %+v, %v", rf, err)
	}
}

// TestDecodeWindows1252: a name typed on a Windows client (Windows-1252 0x80-0x9F
// marks) reads as typed by default; `encoding: latin-1` would lose the marks.
func TestDecodeWindows1252(t *testing.T) {
	rec := vec(t, "refreshx_ctf")
	name := rec[len(header):] // player 0's name: a length byte and 24 bytes
	name[0] = byte(len(prototest.Marks1252))
	copy(name[1:1+nameLen], append(prototest.Marks1252, make([]byte, nameLen)...))
	for enc, want := range map[string]string{
		"":        prototest.Marks1252Text,
		"latin-1": "\u0084Cash & Cars\u0093 \u0096 \u00805\u0085",
	} {
		var cp wire.CodePage
		prototest.NoError(t, cp.UnmarshalText([]byte(enc)))
		text := cp.Or(wire.UTF8)
		rf, err := decodeRefresh(rec, text)
		prototest.NoError(t, err)
		if got := rf.result(true).PlayerList[0].Name; got != want {
			t.Errorf("encoding %q: %q, want %q", enc, got, want)
		}
	}
}

// FuzzDecode: no record panics the decoder, every error names one reason, and a
// result has its counts in the slots (FuzzResults: UTF-8, no negative count).
// Inputs are padded or cut to the record's size, so the fuzzer explores the
// fields rather than the length check.
func FuzzDecode(f *testing.F) {
	prototest.FuzzResults(f, [][]byte{vec(f, "refreshx_ctf"), vec(f, "refreshx_empty")}, func(t *testing.T, b []byte) *protocols.Result {
		rec := make([]byte, recordLen)
		copy(rec, header)
		copy(rec[len(header):], b)
		rf, err := decodeRefresh(rec, wire.UTF8)
		if err != nil {
			prototest.CheckReason(t, err)
			return nil
		}
		res := rf.result(true)
		if res.Players.Value+res.Bots.Value > slots {
			t.Fatalf("%+v", res)
		}
		return res
	})
}

func BenchmarkDecode(b *testing.B) {
	prototest.DecodeBench(b, vec(b, "refreshx_ctf"), func(v []byte) error {
		rf, err := decodeRefresh(v, wire.UTF8)
		if err == nil {
			rf.result(true)
		}
		return err
	})
}
