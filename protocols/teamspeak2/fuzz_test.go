package teamspeak2

import (
	"bytes"
	"testing"
	"unicode/utf8"

	"github.com/gameserver-exporter/gameserver_exporter/protocols/prototest"
	"github.com/gameserver-exporter/gameserver_exporter/protocols/wire"
)

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
