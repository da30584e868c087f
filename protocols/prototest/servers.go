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
	return A2SServerNamed(t, "A2S Test")
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
