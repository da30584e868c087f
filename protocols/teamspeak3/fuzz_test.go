package teamspeak3

import (
	"testing"

	"github.com/gameserver-exporter/gameserver_exporter/protocols/prototest"
)

// FuzzDecodeTranscript checks that no server output panics the exchange, that
// every error names one reason, and that a result has sane counts and UTF-8.
func FuzzDecodeTranscript(f *testing.F) {
	for _, name := range prototest.Names(f, ".expected.json") {
		f.Add(transcript(f, name))
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		res, err := decodeTranscript(b, 9987)
		if err != nil {
			prototest.CheckReason(t, err)
			if res != nil {
				t.Fatalf("result %+v with error %v", res, err)
			}
			return
		}
		if res.Players.Value < 0 || res.MaxPlayers.Value < 0 {
			t.Fatalf("negative counts %+v", res)
		}
		prototest.CheckUTF8(t, res)
	})
}
