package savage

import (
	"net/netip"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/gameserver-exporter/gameserver_exporter/protocols/prototest"
)

// qstatServer answers like a Savage server for both quakestat and the Querier.
// quakestat sends 9-byte requests (its query arrays lose their last byte), so only
// the echo bytes that arrived are copied back; it does not check the echo.
func qstatServer(t testing.TB, ext, basic []byte) netip.AddrPort {
	return prototest.UDP(t, func(req []byte) [][]byte {
		if len(req) < 6 {
			return nil
		}
		reply := basic
		if req[5] == cmdExtInfo {
			reply = ext
		}
		out := append([]byte(nil), reply...)
		copy(out[echoOffset:minReply], req[6:min(len(req), 10)])
		return [][]byte{out}
	})
}

// TestQstat checks name, map, counts and game type against quakestat -sas (checked
// by hand: it sends C8 without -P and CE with it, keeps colour codes, lists players
// in reverse order with their " (Commander)" suffix, and skips every line starting
// "Team ", so the comparison strips codes and suffixes and ignores order).
func TestQstat(t *testing.T) {
	for _, tc := range []struct {
		vec          string
		comparePlist bool
	}{
		{"ext_basic", true},
		{"xr", false}, // quakestat reads XR's colour-coded headers as players
	} {
		t.Run(tc.vec, func(t *testing.T) {
			addr := qstatServer(t, prototest.VecFile(t, tc.vec), prototest.VecFile(t, "basic_c9"))
			qs := prototest.QstatOne(t, "-P", "-sas", addr.String())
			res, _, err := prototest.QueryNew(t, Protocol, addr, all, 5*time.Second)
			if err != nil {
				t.Fatal(err)
			}
			if prototest.QstatASCII(res.Name) != strip(qs.Name) || res.Map != strip(qs.Map) || res.Players.Value != int64(qs.NumPlayers) ||
				res.MaxPlayers.Value != int64(qs.MaxPlayers) {
				t.Errorf("querier %q %q %v/%v, qstat %q %q %d/%d", res.Name, res.Map, res.Players, res.MaxPlayers,
					qs.Name, qs.Map, qs.NumPlayers, qs.MaxPlayers)
			}
			if !tc.comparePlist {
				return
			}
			var ours, theirs []string
			for _, p := range res.PlayerList {
				ours = append(ours, p.Name)
			}
			for _, p := range qs.Players {
				theirs = append(theirs, strings.TrimSuffix(strip(p.Name), " (Commander)"))
			}
			slices.Sort(ours)
			slices.Sort(theirs)
			if !slices.Equal(ours, theirs) {
				t.Errorf("players %q, qstat %q", ours, theirs)
			}
			if res.Game != qs.Game {
				t.Errorf("game %q, qstat gametype %q", res.Game, qs.Game)
			}
		})
	}

	t.Run("basic", func(t *testing.T) {
		addr := qstatServer(t, prototest.VecFile(t, "basic_c9"), prototest.VecFile(t, "basic_c9"))
		prototest.QstatQuery(t, "-sas", addr, Protocol, all)
	})
}
