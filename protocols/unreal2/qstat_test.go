package unreal2

import (
	"encoding/binary"
	"fmt"
	"net/netip"
	"slices"
	"testing"
	"time"

	"github.com/gameserver-exporter/gameserver_exporter/protocols"
	"github.com/gameserver-exporter/gameserver_exporter/protocols/prototest"
)

// ucs2Str encodes an ASCII string as a UCS-2 Unreal string, NUL counted.
func ucs2Str(s string) []byte {
	b := []byte{byte(0x80 | (len(s) + 1))}
	for _, c := range []byte(s) {
		b = append(b, c, 0)
	}
	return append(b, 0, 0)
}

// kfInfo builds a Killing Floor info reply (waves before the ping).
func kfInfo(name string, players, max int32) []byte {
	b := header(typeInfo)
	b = append(b, le32(0)...)
	b = append(b, 0)
	b = binary.LittleEndian.AppendUint32(b, 7707)
	b = append(b, le32(0)...)
	b = append(b, ustr(name)...)
	b = append(b, ustr("KF-WestLondon")...)
	b = append(b, ustr("KFGameType")...)
	for _, v := range []int32{players, max, 4, 10, 0, 0x20} {
		b = append(b, le32(v)...)
	}
	return append(b, ustr("0")...)
}

// TestQstat queries the same fake servers with quakestat -ut2s -P and with the
// Querier and compares name, map, counts and the player list. quakestat adds the
// query port offset 1 to the port it is given (checked by hand: asked for port P it
// sends to P+1), so it gets the fake's port - 1. It asks with version byte 0x78 and
// type 03 (rules and players), which the fake answers like 01 and 02 together; with
// players asked and no rules it stops reading at the info's player count.
// Names carry no colour codes here: quakestat drops more after the 0x1B than the
// three colour bytes.
func TestQstat(t *testing.T) {
	prototest.NeedQstat(t)
	ucs2Info := infoReply("x", "DM-Asbestos", 3, 12)
	// Swap the one-character Latin-1 name for a UCS-2 one.
	i := 5 + 4 + 1 + 8
	ucs2Info = slices.Concat(ucs2Info[:i], ucs2Str("Wide Name"), ucs2Info[i+3:])
	servers := map[string]*fake{
		"single":       {info: [][]byte{infoReply("Fake Server", "DM-Rankin", 2, 16)}, players: playerReplies(2, 2)},
		"multi":        {info: [][]byte{infoReply("Packed Server", "CTF-Face3", 14, 32)}, players: playerReplies(14, 5)},
		"killingfloor": {info: [][]byte{kfInfo("Zed Farm", 3, 6)}, players: playerReplies(3, 3)},
		"ucs2":         {info: [][]byte{ucs2Info}, players: playerReplies(3, 2)},
		"empty":        {info: [][]byte{infoReply("Nobody", "DM-Gael", 0, 8)}},
	}
	for name, f := range servers {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			f.rules = rulesReplies(6, stockRules...)
			addr := f.start(t)
			gamePort := netip.AddrPortFrom(addr.Addr(), addr.Port()-1)
			qs := prototest.QstatOne(t, "-P", "-ut2s", gamePort.String())
			res, _, err := query(t, addr, protocols.Settings{Players: true}, 5*time.Second)
			if err != nil {
				t.Fatal(err)
			}

			if res.Name != qs.Name || res.Map != qs.Map || res.Game != qs.Game ||
				res.Players != protocols.Known(int64(qs.NumPlayers)) || res.MaxPlayers != protocols.Known(int64(qs.MaxPlayers)) {
				t.Errorf("querier %q %q %q %v/%v, qstat %q %q %q %d/%d", res.Name, res.Map, res.Game, res.Players, res.MaxPlayers,
					qs.Name, qs.Map, qs.Game, qs.NumPlayers, qs.MaxPlayers)
			}
			// quakestat lists players last first: compare sorted lines.
			var ours, theirs []string
			for _, p := range res.PlayerList {
				ours = append(ours, fmt.Sprint(p.Name, " ", p.Score.Value, " ", p.Ping.Value, " ", p.Team))
			}
			for _, p := range qs.Players {
				theirs = append(theirs, fmt.Sprint(p.Name, " ", p.Score, " ", p.Ping, " ", p.Team()))
			}
			slices.Sort(ours)
			slices.Sort(theirs)
			if !slices.Equal(ours, theirs) {
				t.Errorf("players\n ours %q\nqstat %q", ours, theirs)
			}
		})
	}
}
