package prototest

import (
	"testing"

	"github.com/gameserver-exporter/gameserver_exporter/protocols"
)

// Unknown is CheckBots' value for a count the protocol cannot know.
const Unknown = -1

// CheckBots checks the one meaning of Result.Players and Result.Bots every
// protocol follows: Players counts humans wherever the protocol tells bots
// apart, Bots counts the bots, and a count the protocol cannot know is unknown,
// never a fake 0. wantHumans or wantBots is Unknown for such a count. When the
// player list holds entries, the ones marked Bot must number wantBots (when
// the list is the whole list: listComplete).
func CheckBots(t testing.TB, res *protocols.Result, wantHumans, wantBots int64, listComplete bool) {
	t.Helper()
	check := func(what string, got protocols.Count, want int64) {
		t.Helper()
		switch {
		case want == Unknown && got.Known:
			t.Errorf("%s = %d, want unknown (the protocol cannot tell)", what, got.Value)
		case want != Unknown && (!got.Known || got.Value != want):
			t.Errorf("%s = %+v, want %d", what, got, want)
		}
	}
	check("Players (humans)", res.Players, wantHumans)
	check("Bots", res.Bots, wantBots)
	if !listComplete || len(res.PlayerList) == 0 {
		return
	}
	var marked int64
	for _, p := range res.PlayerList {
		if p.Bot {
			marked++
		}
	}
	switch {
	case wantBots == Unknown && marked > 0:
		t.Errorf("%d players marked as bots, but the bot count is unknown", marked)
	case wantBots != Unknown && marked != wantBots:
		t.Errorf("%d players marked as bots, want %d", marked, wantBots)
	}
}
