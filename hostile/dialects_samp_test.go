package hostile

import (
	"bytes"
	"encoding/binary"
)

// --- SA-MP query (SA-MP wiki "Query Mechanism"): "SAMP", IPv4, port, opcode;
// replies start with the request's 11 bytes ---

// sampPrefix is the header of a reply to req.
func sampPrefix(req []byte) []byte {
	if len(req) < 11 {
		return []byte("SAMP\x7f\x00\x00\x01\x61\x1ei")
	}
	return bytes.Clone(req[:11])
}

// sampReply answers 'i' with an info carrying serverName and 'r' with a rules
// list holding the version; other opcodes get an empty list.
func sampReply(req []byte) []byte {
	b := sampPrefix(req)
	str := func(s string) { b = binary.LittleEndian.AppendUint32(b, uint32(len(s))); b = append(b, s...) }
	switch b[10] {
	case 'i':
		b = append(b, 0, 2, 0, 32, 0) // no password, 2 of 32 players
		str(serverName)
		str("Freeroam")
		str("English")
	case 'r':
		b = append(b, 1, 0, 7)
		b = append(b, "version"...)
		b = append(b, 8)
		b = append(b, "0.3.7-R2"...)
	default:
		b = append(b, 0, 0)
	}
	return b
}
