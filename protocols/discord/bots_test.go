package discord

import (
	"testing"

	"github.com/gameserver-exporter/gameserver_exporter/protocols/prototest"
)

// TestBotsMeaning: presence_count counts every member online, bot accounts
// too, and nothing marks them: Players is that count, Bots stays unknown, and
// the list (capped at 100) need not hold them all.
func TestBotsMeaning(t *testing.T) {
	for name, humans := range map[string]int64{"widget_basic.json": 3, "widget_capped.json": 14873} {
		t.Run(name, func(t *testing.T) {
			w, err := decode(prototest.File(t, name))
			if err != nil {
				t.Fatal(err)
			}
			prototest.CheckBots(t, w.result(true), humans, prototest.Unknown, false)
		})
	}
}
