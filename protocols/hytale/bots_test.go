package hytale

import (
	"testing"
	"time"

	"github.com/gameserver-exporter/gameserver_exporter/protocols/prototest"
)

// TestBotsMeaning: the plugin's OK line counts players and knows no bots.
func TestBotsMeaning(t *testing.T) {
	res, _, err := probe(t, pluginServer(t, func(string) string { return "OK 12 100\n" }), 2*time.Second)
	if err != nil {
		t.Fatal(err)
	}
	prototest.CheckBots(t, res, 12, prototest.Unknown, true)
}
