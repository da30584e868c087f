package prototest

import (
	"net/netip"
	"strings"
	"testing"
)

// A2SServer is a Source server for tests outside protocols/a2s (module auto, the
// query command): it answers A2S_INFO with a challenge round trip, a server named
// "A2S Test" on de_dust2 with 5 of 16 players (1 a bot), and nothing else.
func A2SServer(t testing.TB) netip.AddrPort {
	t.Helper()
	info := append([]byte("\xff\xff\xff\xffI\x11A2S Test\x00de_dust2\x00csgo\x00Counter-Strike\x00"),
		0xda, 0x02, 5, 16, 1, 'd', 'l', 0, 1)
	info = append(info, "1.0.0.0\x00"...)
	return UDP(t, func(req []byte) [][]byte {
		if len(req) < 25 || string(req[4:24]) != "TSource Engine Query" {
			return nil
		}
		if len(req) == 25 {
			return [][]byte{[]byte("\xff\xff\xff\xffA\x01\x02\x03\x04")}
		}
		if string(req[25:]) == "\x01\x02\x03\x04" {
			return [][]byte{info}
		}
		return nil
	})
}

// Quake3Server is a Quake 3 server for tests outside protocols/quake3: it answers
// getstatus, echoing the challenge, as "Q3 Test" on q3dm17 with 12 slots and the
// status lines players gives ("12 48 \"Player\"\n" per player), and nothing else.
func Quake3Server(t testing.TB, players string) netip.AddrPort {
	t.Helper()
	return UDP(t, func(req []byte) [][]byte {
		s := string(req)
		if !strings.HasPrefix(s, "\xff\xff\xff\xffgetstatus") {
			return nil
		}
		challenge := strings.TrimSpace(strings.TrimPrefix(strings.TrimRight(s[4:], "\x00\n"), "getstatus"))
		return [][]byte{[]byte("\xff\xff\xff\xffstatusResponse\n\\challenge\\" + challenge +
			"\\sv_hostname\\Q3 Test\\mapname\\q3dm17\\sv_maxclients\\12\n" + players)}
	})
}
