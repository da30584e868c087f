package hostile

import (
	"encoding/binary"
	"math"
)

// --- StarMade status (qstat's starmade.c): int32 length, int64 time, packet
// header, parameter count, typed big-endian parameters ---

// starmadeReply is a status answer naming serverName.
func starmadeReply([]byte) []byte {
	var p []byte
	p = append(p, 6, 2)                                                      // info version
	p = binary.BigEndian.AppendUint32(append(p, 3), math.Float32bits(0.199)) // version
	for _, s := range []string{serverName, "Hostile universe"} {             // name, description
		p = append(binary.BigEndian.AppendUint16(append(p, 4), uint16(len(s))), s...)
	}
	p = binary.BigEndian.AppendUint64(append(p, 2), 1700000000000) // start time
	p = binary.BigEndian.AppendUint32(append(p, 1), 2)             // players
	p = binary.BigEndian.AppendUint32(append(p, 1), 32)            // max
	return append(starmadeHeader(len(p), 7), p...)
}

// starmadeHeader is the header of an answer whose parameters take n bytes.
func starmadeHeader(n, params int) []byte {
	b := binary.BigEndian.AppendUint32(nil, uint32(5+4+n))
	b = append(b, 0, 0, 1, 0x8b, 0xcf, 0xe5, 0x68, 0) // time
	b = append(b, 0x2a, 0xff, 0xff, 0x01, 0x6f)
	return binary.BigEndian.AppendUint32(b, uint32(params))
}

// starmadePrefix heads a 256-byte body of 7 parameters: the random bytes behind
// it are the parameters (or end it early: truncated).
func starmadePrefix([]byte) []byte { return starmadeHeader(256-9, 7) }
