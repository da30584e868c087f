package teamspeak3

import (
	"testing"

	"github.com/gameserver-exporter/gameserver_exporter/protocols/prototest"
)

// TestBotsMeaning: serverinfo has no bot count. Its ServerQuery connections
// (this probe's own among them) are no players and are left out of Players,
// not counted as bots: Bots stays unknown.
func TestBotsMeaning(t *testing.T) {
	for _, c := range []struct {
		vector string
		humans int64
	}{
		{"ok_default", 4},        // clientsonline 6, queryclientsonline 2
		{"ok_no_query_count", 3}, // no query count: clientsonline as sent
	} {
		t.Run(c.vector, func(t *testing.T) {
			res, err := decodeTranscript(transcript(t, c.vector), 9987)
			if err != nil {
				t.Fatal(err)
			}
			prototest.CheckBots(t, res, c.humans, prototest.Unknown, true)
		})
	}
}
