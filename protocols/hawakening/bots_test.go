package hawakening

import (
	"testing"

	"github.com/gameserver-exporter/gameserver_exporter/protocols/prototest"
)

// TestBotsMeaning: Users lists the pilots' account Guids; the listing marks
// no bots (HAWKEN's bots are not accounts): Players is the users listed, Bots
// stays unknown, and no names are listed (Guids are no names).
func TestBotsMeaning(t *testing.T) {
	res, err := decodeListing(prototest.File(t, "listings_basic.json"), "aaaaaaaa-0000-4000-8000-000000000001")
	if err != nil {
		t.Fatal(err)
	}
	prototest.CheckBots(t, res, 3, prototest.Unknown, false)
}
