package teamspeak3

import (
	"bytes"
	"fmt"

	"github.com/gameserver-exporter/gameserver_exporter/protocols"
	"github.com/gameserver-exporter/gameserver_exporter/protocols/wire"
)

// decodeTranscript runs the exchange against a recorded server output (what the
// server sends, in order); the commands the client would send are dropped.
func decodeTranscript(b []byte, voicePort uint16) (*protocols.Result, error) {
	s := session{next: transcriptLines(b), send: func(string) error { return nil }}
	return s.run(voicePort)
}

// transcriptLines serves the lines of a recorded server output, the way the
// socket would: past its end is ErrTruncated, a line over maxLine ErrTooLarge.
func transcriptLines(b []byte) func() ([]byte, error) {
	return func() ([]byte, error) {
		if len(b) == 0 {
			return nil, fmt.Errorf("%w: the server's output ends early", wire.ErrTruncated)
		}
		l, rest, found := bytes.Cut(b, []byte{'\n'})
		if len(l) > maxLine {
			return nil, fmt.Errorf("%w: line longer than %d bytes", wire.ErrTooLarge, maxLine)
		}
		if !found {
			rest = nil
		}
		b = rest
		return l, nil
	}
}
