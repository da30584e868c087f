package idtech

import (
	"bytes"
	"fmt"

	"github.com/gameserver-exporter/gameserver_exporter/protocols/wire"
)

// The keywords of id Tech 3 replies: statusResponse answers getstatus (info
// string, then the player lines), infoResponse answers getinfo (info string
// only). DarkPlaces answers getstatus with an infoResponse when its player
// list does not fit.
const (
	StatusResponse = "statusResponse"
	InfoResponse   = "infoResponse"
)

// Q3Reply is the frame of a statusResponse or an infoResponse.
type Q3Reply struct {
	Response string // StatusResponse or InfoResponse
	// Info holds the info string's pairs, keys compared case-insensitively as
	// the engine does, decoded with DecodeQ3's text, colour codes kept.
	Info
	// EndsWithNewline is false when the datagram does not end in 0A (a cut
	// statusResponse, or any infoResponse).
	EndsWithNewline bool
}

// DecodeQ3 decodes the frame of a statusResponse or infoResponse datagram and
// returns the bytes after the info line (the player lines of a
// statusResponse), its info string decoded with text (see ParseInfo). Errors
// for datagrams that are no such reply at all wrap notReply, the caller's
// sentinel, so that its querier can skip them.
func DecodeQ3(b []byte, notReply error, text func([]byte) string) (Q3Reply, []byte, error) {
	if len(b) > MaxDatagram {
		return Q3Reply{}, nil, fmt.Errorf("%w: datagram of %d bytes", wire.ErrTooLarge, len(b))
	}
	if !HasOOB(b) {
		return Q3Reply{}, nil, fmt.Errorf("%w: no FF FF FF FF marker at offset 0", notReply)
	}
	off := 4
	if off < len(b) && b[off] == 0x01 { // an unnamed derivative inserts one 01 byte (qstat)
		off++
	}
	kind, n := Q3Keyword(b[off:])
	if kind == "" {
		return Q3Reply{}, nil, fmt.Errorf("%w: unknown keyword %q at offset %d", notReply, Head(b[off:], 16), off)
	}
	off += n
	for off < len(b) && (b[off] == ' ' || b[off] == '\t' || b[off] == '\r') {
		off++
	}
	if off == len(b) {
		return Q3Reply{}, nil, fmt.Errorf("%w: no info string after %s at offset %d", wire.ErrTruncated, kind, off)
	}
	if b[off] == '\n' {
		off++
	}
	r := Q3Reply{Response: kind, EndsWithNewline: b[len(b)-1] == '\n'}
	line, rest, _ := bytes.Cut(b[off:], []byte{'\n'})
	if bytes.IndexByte(line, '\\') < 0 {
		if len(bytes.TrimSpace(line)) == 0 {
			return r, rest, nil
		}
		return Q3Reply{}, nil, fmt.Errorf("%w: info string at offset %d has no backslash", wire.ErrMalformed, off)
	}
	if kind == InfoResponse {
		line = bytes.TrimSuffix(line, []byte{'"'}) // stray trailing quote of some forks (qstat strips it)
	}
	r.Info, _ = ParseInfo(line, CaseInsensitive, text)
	return r, rest, nil
}

// Q3Keyword matches the reply keyword at the start of b case-insensitively
// (the engine compares commands that way) and requires a separator or the end
// of the datagram after it. It returns the keyword and its length, or "".
func Q3Keyword(b []byte) (string, int) {
	for _, k := range [...]string{StatusResponse, InfoResponse} {
		if len(b) < len(k) || !asciiEqualFold(b[:len(k)], []byte(k)) {
			continue
		}
		if len(b) == len(k) {
			return k, len(k)
		}
		switch b[len(k)] {
		case '\n', '\r', ' ', '\t', '\\':
			return k, len(k)
		}
	}
	return "", 0
}

// Q3Request builds the request `FF FF FF FF <command> <challenge>` and end after
// it. The server echoes the challenge in its reply's `challenge` key: ioquake3
// reads the request as a line ("\n"); DarkPlaces and FXServer echo all that
// follows the space, so they get nothing after it ("").
func Q3Request(command, challenge, end string) []byte {
	b := make([]byte, 0, 4+len(command)+1+len(challenge)+len(end))
	b = append(b, 0xFF, 0xFF, 0xFF, 0xFF)
	b = append(b, command...)
	b = append(b, ' ')
	b = append(b, challenge...)
	return append(b, end...)
}

// Echoed says why a reply whose `challenge` key is got (has: it carries one)
// is not the answer to the request that sent challenge: another token is a
// stray or spoofed reply. Engines that drop the echo send no key: such a reply
// is taken.
func Echoed(got string, has bool, challenge string) error {
	if has && got != challenge {
		return fmt.Errorf("%w: challenge %q, sent %q", wire.ErrMismatch, got, challenge)
	}
	return nil
}
