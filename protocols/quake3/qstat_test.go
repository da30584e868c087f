package quake3

import (
	"fmt"
	"net/netip"
	"strings"
	"testing"

	"github.com/gameserver-exporter/gameserver_exporter/protocols"
	"github.com/gameserver-exporter/gameserver_exporter/protocols/internal/idtech/idtechtest"
	"github.com/gameserver-exporter/gameserver_exporter/protocols/prototest"
)

// qstatServer is a fake ioq3 server for quakestat -q3s, which sends `getinfo\n`
// and, with -P or -R, `getstatus\n` (no challenge); the Querier sends
// `getstatus <challenge>\n`. Both replies describe the same server.
func qstatServer(t *testing.T, players []string) netip.AddrPort {
	const info = `\sv_hostname\^1Cross ^3Check^7!\mapname\oa_dm4\sv_maxclients\24\gamename\baseoa\version\ioq3 1.36\g_needpass\1`
	return prototest.UDP(t, func(req []byte) [][]byte {
		switch s := string(req); {
		case strings.HasPrefix(s, oob+"getinfo"):
			return [][]byte{fmt.Appendf(nil, oob+"infoResponse\n\\clients\\%d\\hostname\\^1Cross ^3Check^7!\\mapname\\oa_dm4\\sv_maxclients\\24\\gamename\\baseoa", len(players))}
		case strings.HasPrefix(s, oob+"getstatus"):
			reply := oob + "statusResponse\n"
			if c, ok := parseRequest(req); ok {
				reply += `\challenge\` + c
			}
			reply += info + "\n" + strings.Join(players, "\n") + "\n"
			return [][]byte{[]byte(reply)}
		}
		return nil
	})
}

func TestQstatCrossCheck(t *testing.T) {
	// Names use the codes both clients strip the same way (qstat knows no ^X RGB codes).
	players := []string{`12 48 "^1Play^7er"`, `-3 0 "^^00East"`, `0 999 ""`, `7 20 "^1^^a"`, `1 1 "war" 2`, `4 50 "x^*y^=z"`}
	addr := qstatServer(t, players)

	res, _ := prototest.QstatQuery(t, "-q3s", addr, Protocol, protocols.Settings{Players: true}, "-P", "-R")
	idtechtest.CheckQstatPlayers(t, idtechtest.QstatList(t, "-q3s", addr).Players, res.PlayerList, false)
}
