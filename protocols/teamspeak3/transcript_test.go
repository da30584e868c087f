package teamspeak3

import "github.com/gameserver-exporter/gameserver_exporter/protocols"

// decodeTranscript runs the exchange against a recorded server output (what the
// server sends, in order); the commands the client would send are dropped.
func decodeTranscript(b []byte, voicePort uint16) (*protocols.Result, error) {
	s := session{next: transcriptLines(b), send: func(string) error { return nil }}
	return s.run(voicePort)
}
