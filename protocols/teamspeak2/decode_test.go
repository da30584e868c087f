package teamspeak2

import (
	"bytes"
	"slices"
	"testing"
	"unicode/utf8"

	"github.com/gameserver-exporter/gameserver_exporter/protocols"
	"github.com/gameserver-exporter/gameserver_exporter/protocols/prototest"
	"github.com/gameserver-exporter/gameserver_exporter/protocols/wire"
)

// reply reads testdata/name and returns its data lines (the OK line dropped).
func reply(t testing.TB, name string) [][]byte {
	t.Helper()
	var out [][]byte
	for _, l := range bytes.Split(bytes.TrimSuffix(prototest.File(t, name), []byte("\r\n")), []byte("\r\n")) {
		if string(l) != "OK" {
			out = append(out, l)
		}
	}
	return out
}

func TestDecodeServerInfo(t *testing.T) {
	res, err := decodeServerInfo(reply(t, "si_default.txt"), wire.UTF8)
	prototest.NoError(t, err)
	if res.Name != "Gameserver Exporter TS2" || res.Players != protocols.Known(3) || res.MaxPlayers != protocols.Known(32) ||
		res.Password != protocols.FlagTrue || len(res.Info) != 20 || res.Bots.Known || res.Uptime != protocols.SpanSeconds(86400) {
		t.Errorf("%+v, want server_uptime's 86400 s and no bot count", res)
	}
	for _, c := range []struct{ name, lines, reason string }{
		{"no name nor count", "server_id=1", "malformed"},
		{"count not a number", "server_name=x\nserver_currentusers=lots", "malformed"},
		{"negative max", "server_name=x\nserver_maxusers=-1", "malformed"},
		{"password 2", "server_name=x\nserver_password=2", "malformed"},
		{"name only", "server_name=x", ""},
	} {
		_, err := decodeServerInfo(bytes.Split([]byte(c.lines), []byte("\n")), wire.UTF8)
		if got := wire.Reason(err); c.reason == "" && err != nil || c.reason != "" && got != c.reason {
			t.Errorf("%s: %v, want %q", c.name, err, c.reason)
		}
	}
}

func TestDecodePlayers(t *testing.T) {
	ps, err := decodePlayers(reply(t, "pl_default.txt"), wire.UTF8)
	prototest.NoError(t, err)
	want := []protocols.Player{
		{Name: "Alice", Ping: protocols.Known(45), Duration: 3600, DurationKnown: true},
		{Name: "Bob the Builder", Ping: protocols.Known(80), Duration: 120, DurationKnown: true},
		{Name: "Jürgen", Ping: protocols.Known(12), Duration: 5, DurationKnown: true},
	}
	if !slices.Equal(ps, want) {
		t.Errorf("%+v, want %+v", ps, want)
	}
	if ps, err := decodePlayers(reply(t, "pl_empty.txt"), wire.UTF8); err != nil || len(ps) != 0 {
		t.Errorf("empty: %+v, %v", ps, err)
	}
	for name, lines := range map[string][][]byte{
		"no header": nil,
		"no nick":   {[]byte("p_id\tping")},
		"short row": {[]byte("p_id\tnick"), []byte("1")},
	} {
		if _, err := decodePlayers(lines, wire.UTF8); wire.Reason(err) != "malformed" {
			t.Errorf("%s: %v", name, err)
		}
	}
	prototest.CheckUTF8(t, &protocols.Result{PlayerList: ps})
}

func TestReplyEnd(t *testing.T) {
	for line, want := range map[string]string{"OK": "", "ERROR, invalid id": "server_error", "error": "server_error", "server_id=1": "data"} {
		end, err := replyEnd([]byte(line), "sel 8767")
		got := "data"
		if end {
			got = wire.Reason(err)
		}
		if got != want {
			t.Errorf("%q: %v %v", line, end, err)
		}
	}
}

// TestDecodeWindows1252: names the Windows clients typed with Windows-1252's
// 0x80-0x9F marks read as typed; `encoding: windows-1251` reads them as a
// Cyrillic server's.
func TestDecodeWindows1252(t *testing.T) {
	si := [][]byte{append([]byte("server_name="), prototest.MafiaName...), []byte("server_currentusers=1")}
	pl := [][]byte{[]byte("p_id\tping\tnick"), append(append([]byte("1\t9\t\""), prototest.Marks1252...), '"')}
	for enc, want := range map[string][2]string{
		"":             {prototest.MafiaNameText, prototest.Marks1252Text},
		"windows-1251": {"Empire Bay – „Cash & Cars“ Ђ5 VIP", "„Cash & Cars“ – Ђ5…"},
	} {
		q, err := Protocol.New(protocols.Settings{Options: prototest.OptionsOf(Options{Encoding: prototest.CodePage(t, enc)})})
		prototest.NoError(t, err)
		text := q.(*querier).text
		res, err := decodeServerInfo(si, text)
		if err != nil || res.Name != want[0] {
			t.Errorf("encoding %q: name %q, %v; want %q", enc, res.Name, err, want[0])
		}
		ps, err := decodePlayers(pl, text)
		if err != nil || len(ps) != 1 || ps[0].Name != want[1] {
			t.Errorf("encoding %q: players %+v, %v; want %q", enc, ps, err, want[1])
		}
	}
}

// FuzzDecode splits the input into lines and decodes them as si's and pl's data:
// no input panics, every error names one reason, and what decodes is UTF-8 with
// counts that are not negative.
func FuzzDecode(f *testing.F) {
	for _, name := range []string{"si_default.txt", "pl_default.txt", "pl_empty.txt"} {
		f.Add([]byte(file(f, name)))
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		lines := bytes.Split(b, []byte("\r\n"))
		res, err := decodeServerInfo(lines, wire.UTF8)
		prototest.CheckReason(t, err)
		if err == nil && (res.Players.Value < 0 || res.MaxPlayers.Value < 0 || !utf8.ValidString(res.Name)) {
			t.Fatalf("%+v", res)
		}
		ps, err := decodePlayers(lines, wire.UTF8)
		prototest.CheckReason(t, err)
		for _, p := range ps {
			if !utf8.ValidString(p.Name) || p.Ping.Value < 0 {
				t.Fatalf("%+v", p)
			}
		}
	})
}

func BenchmarkDecodePlayers(b *testing.B) {
	lines := reply(b, "pl_default.txt")
	prototest.DecodeBench(b, nil, func([]byte) error {
		_, err := decodePlayers(lines, wire.UTF8)
		return err
	})
}
