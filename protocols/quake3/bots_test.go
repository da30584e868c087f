package quake3

import (
	"sync/atomic"
	"testing"
	"time"

	"github.com/gameserver-exporter/gameserver_exporter/protocols"
	"github.com/gameserver-exporter/gameserver_exporter/protocols/internal/idtech/idtechtest"
	"github.com/gameserver-exporter/gameserver_exporter/protocols/prototest"
	"github.com/gameserver-exporter/gameserver_exporter/protocols/wire"
)

// TestBotsMeaning: Players counts humans wherever the server tells bots
// apart. ioq3/OpenArena's getstatus does not (bots are ping-0 lines, as a LAN
// player can be), so a status with ping-0 lines and no bot key is followed by
// one getinfo, whose clients - g_humanplayers are the bots. A server that
// ignores getinfo leaves players and bots unknown (some lines may be bots: no
// count rather than a wrong one) and fails the players phase, within the
// deadline: getinfo gets half of what is left.
func TestBotsMeaning(t *testing.T) {
	human, sarge, major := `5 48 "Human"`, `3 0 "Sarge"`, `1 0 "Major"`
	for _, c := range []struct {
		name         string
		keys, info   string // info "": getinfo unanswered
		lines        []string
		humans, bots int64
		marked       bool // the ping-0 lines are marked as bots
		getinfo      int32
		phases       string
	}{
		{"OpenArena: getinfo counts the bots", "", `\clients\3\g_humanplayers\1`, []string{human, sarge, major}, 1, 2, true, 1, "info:ok,players:ok"},
		{"only bots", "", `\clients\2\g_humanplayers\0`, []string{sarge, major}, 0, 2, true, 1, "info:ok,players:ok"},
		{"a LAN human at ping 0", "", `\clients\3\g_humanplayers\2`, []string{`1 0 "LAN"`, sarge, human}, 2, 1, false, 1, "info:ok,players:ok"},
		{"getinfo without g_humanplayers", "", `\clients\3`, []string{human, sarge, major}, 3, prototest.Unknown, false, 1, "info:ok,players:ok"},
		{"no ping-0 line: no getinfo", "", `\clients\1\g_humanplayers\0`, []string{human}, 1, prototest.Unknown, false, 0, "info:ok"},
		{"bots key: no getinfo", `\bots\2`, `\clients\3\g_humanplayers\3`, []string{human, sarge, major}, 1, 2, false, 0, "info:ok"},
		{"getinfo ignored", "", "", []string{sarge, human}, prototest.Unknown, prototest.Unknown, true, 1, "info:ok,players:timeout"},
	} {
		t.Run(c.name, func(t *testing.T) {
			var getinfos atomic.Int32
			addr := prototest.UDP(t, answer(c.keys, c.info, &getinfos, c.lines...))
			tr := wire.NewTrace()
			const deadline = time.Second
			start := time.Now()
			res, err := idtechtest.QueryWithin(t, Protocol, protocols.Settings{Players: true}, addr, deadline, tr)
			if el := time.Since(start); el > deadline+500*time.Millisecond+prototest.LagSince(start) {
				t.Errorf("returned after %v, deadline %v", el, deadline)
			}
			if err != nil {
				t.Fatal(err)
			}
			// CheckBots wants the marks only where the lines are the bots.
			prototest.CheckBots(t, res, c.humans, c.bots, c.marked)
			if n := getinfos.Load(); n != c.getinfo || len(res.PlayerList) != len(c.lines) || prototest.PhaseReasons(tr) != c.phases {
				t.Errorf("%d getinfo requests, %d players listed, phases %s", n, len(res.PlayerList), prototest.PhaseReasons(tr))
			}
		})
	}
}
