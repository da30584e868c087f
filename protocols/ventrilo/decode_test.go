package ventrilo

import (
	"bytes"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/gameserver-exporter/gameserver_exporter/protocols"
	"github.com/gameserver-exporter/gameserver_exporter/protocols/prototest"
	"github.com/gameserver-exporter/gameserver_exporter/protocols/wire"
)

func text(t testing.TB, name string) []byte { return prototest.File(t, name+".txt") }

func TestCRC(t *testing.T) {
	if got := crc16([]byte("123456789")); got != 0x31c3 { // CRC-16/XMODEM check value
		t.Errorf("crc16 = %#x", got)
	}
}

func TestEncodeMatchesVector(t *testing.T) {
	data := make([]byte, 16)
	copy(data, "secret")
	h := header{Key: 0x1234, Cmd: 2, ID: 0x0102, TotLen: 16, Len: 16, TotPck: 1, DataKey: 0x5678, CRC: crc16(data)}
	if got, want := encode(h, data), prototest.HexFile(t, "request_secret.hex"); !bytes.Equal(got, want) {
		t.Errorf("request\n% x\nwant\n% x", got, want)
	}
	// And back: the vector decodes to what was encoded.
	dh, dd := decode(prototest.HexFile(t, "request_secret.hex"))
	if dh.ID != 0x0102 || dh.Cmd != 2 || dh.CRC != crc16(dd) || string(bytes.TrimRight(dd, "\x00")) != "secret" {
		t.Errorf("%+v %q", dh, dd)
	}
}

func TestDecodeReplyVector(t *testing.T) {
	a := &assembly{id: 0x0102}
	done, err := a.add(prototest.HexFile(t, "reply_vector.hex"))
	if err != nil || !done {
		t.Fatal(done, err)
	}
	res, err := result(a.text(), false, wire.UTF8)
	if err != nil || res.Name != "Vector" || res.MaxPlayers != protocols.Known(8) || res.Players != protocols.Known(1) {
		t.Errorf("%v %+v", err, res)
	}
	// Another id: not ours.
	if _, err := (&assembly{id: 7}).add(prototest.HexFile(t, "reply_vector.hex")); err == nil {
		t.Error("a reply to another id was taken")
	}
}

// TestResult decodes each status text of testdata/ that has a NAME.expected.json
// as it says: the error, or the Result (players asked or not) as a ProbeLine,
// its player list, info values and uptime. A voice server has no bots;
// CLIENTCOUNT counts the connected clients (phantoms, a user's presence in a
// second channel, are clients too): Players is the count as sent, Bots unknown.
func TestResult(t *testing.T) {
	for _, name := range prototest.Names(t, ".expected.json") {
		t.Run(name, func(t *testing.T) {
			w := prototest.ReadJSON[struct {
				prototest.HexVector
				Players bool
				Line    string
				List    []protocols.Player
				Info    map[string]string
				Uptime  float64
			}](t, filepath.Join("testdata", name+".expected.json"))
			res, err := result(text(t, name), w.Players, wire.UTF8)
			if w.Refused(t, nil, err) {
				return
			}
			prototest.CheckProbe(t, res, nil, nil, w.Line)
			if !slices.Equal(res.PlayerList, w.List) || res.Uptime != protocols.SpanSeconds(w.Uptime) {
				t.Errorf("players %+v, uptime %+v", res.PlayerList, res.Uptime)
			}
			prototest.CheckInfoHas(t, res, w.Info)
			prototest.CheckUTF8(t, res)
		})
	}
}

func TestUnescape(t *testing.T) {
	for in, want := range map[string]string{"a%20b": "a b", "100%": "100%", "%zz": "%zz", "%C3%A9": "é", "%E9": "é", "x%4": "x%4"} {
		if got := unescape(in, wire.UTF8); got != want {
			t.Errorf("unescape(%q) = %q, want %q", in, got, want)
		}
	}
}

// frag encrypts fragment n of total carrying data, for answer id.
func frag(id uint16, n, total int, data []byte, totLen int) []byte {
	h := header{Key: 0x2b07, Cmd: 2, ID: id, TotLen: uint16(totLen), Len: uint16(len(data)), TotPck: uint16(total), Pck: uint16(n), DataKey: 0x9d33, CRC: crc16(data)}
	return encode(h, append([]byte(nil), data...))
}

func TestAssembly(t *testing.T) {
	body := text(t, "status")
	half := len(body) / 2
	a := &assembly{id: 9}
	if done, err := a.add(frag(9, 1, 2, body[half:], len(body))); done || err != nil {
		t.Fatal(done, err)
	}
	if _, err := a.add(frag(9, 1, 2, body[half:], len(body))); err == nil {
		t.Error("duplicate taken")
	}
	if done, err := a.add(frag(9, 0, 2, body[:half], len(body))); !done || err != nil || !bytes.Equal(a.text(), body) {
		t.Fatal(done, err)
	}
	for _, c := range []struct {
		name string
		d    []byte
		want string
	}{
		{"no packets", frag(9, 0, 0, nil, 0), "malformed"},
		{"too many packets", frag(9, 0, 33, nil, 0), "too_large"},
		{"number past total", frag(9, 2, 2, nil, 0), "malformed"},
		{"length lies", frag(9, 0, 1, []byte("abc"), 3)[:21], "truncated"},
	} {
		if _, err := (&assembly{id: 9}).add(c.d); wire.Reason(err) != c.want {
			t.Errorf("%s: %v, want %s", c.name, err, c.want)
		}
	}
	a = &assembly{id: 9}
	a.add(frag(9, 0, 2, []byte("x"), 2))
	if _, err := a.add(frag(9, 1, 3, []byte("y"), 2)); wire.Reason(err) != "malformed" {
		t.Errorf("total changes: %v", err)
	}
}

func TestAnswer(t *testing.T) {
	q := &querier{}
	req, id := q.request()
	a := &assembly{id: id}
	done, err := a.add(Answer(req, []byte("NAME: x\n"), 8))
	if err != nil || !done || string(a.text()) != "NAME: x\n" {
		t.Errorf("%v %v %q", done, err, a.text())
	}
	if Answer(req[:5], nil, 0) != nil {
		t.Error("a short request answered")
	}
}

// TestResultWindows1252: the %XX escapes carry the Windows clients' bytes, so
// "%96" is an en dash and "%80" the euro sign, not control characters.
func TestResultWindows1252(t *testing.T) {
	for enc, want := range prototest.MafiaNameAs {
		q, err := Protocol.New(protocols.Settings{Options: prototest.OptionsOf(Options{Encoding: prototest.CodePage(t, enc)})})
		prototest.NoError(t, err)
		res, err := result(text(t, "status_cp1252"), true, q.(*querier).text)
		if err != nil || res.Name != want {
			t.Fatalf("encoding %q: %q, %v; want %q", enc, res.Name, err, want)
		}
		if enc != "" {
			continue
		}
		if len(res.PlayerList) != 1 || res.PlayerList[0].Name != prototest.Marks1252Text || res.PlayerList[0].Team != "„Lobby“" {
			t.Errorf("players %+v", res.PlayerList)
		}
		if res.Info[0].Value != "Raid nights … Tue–Thu" {
			t.Errorf("comment %q", res.Info[0].Value)
		}
	}
}

// FuzzDecode: no datagram or status text panics the decoders, every error names
// one reason, and what decodes has UTF-8 strings. Each input is tried as a
// datagram (decrypted as a reply to id 0x0102) and as a status text.
func FuzzDecode(f *testing.F) {
	prototest.SeedFiles(f, "*.txt")
	prototest.SeedHex(f)
	f.Fuzz(func(t *testing.T, b []byte) {
		a := &assembly{id: 0x0102}
		if _, err := a.add(b); err != nil && !strings.Contains(err.Error(), errSkip.Error()) {
			prototest.CheckReason(t, err)
		}
		res, err := result(b, true, wire.UTF8)
		if err != nil {
			prototest.CheckReason(t, err)
			return
		}
		prototest.CheckUTF8(t, res)
		for _, p := range res.PlayerList {
			if p.Ping.Value < 0 {
				t.Fatalf("%+v", p)
			}
		}
	})
}

// BenchmarkDecode reassembles the status reply from fragments of at most maxData
// bytes, as a server sends it, and decodes it.
func BenchmarkDecode(b *testing.B) {
	body := text(b, "status")
	n := (len(body) + maxData - 1) / maxData
	frags := make([][]byte, n)
	for i := range n {
		frags[i] = frag(9, i, n, body[i*maxData:min((i+1)*maxData, len(body))], len(body))
	}
	b.ReportAllocs()
	for b.Loop() {
		a := &assembly{id: 9}
		for _, d := range frags {
			if _, err := a.add(d); err != nil {
				b.Fatal(err)
			}
		}
		if _, err := result(a.text(), true, wire.UTF8); err != nil {
			b.Fatal(err)
		}
	}
}
