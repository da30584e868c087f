package hostile

import "encoding/binary"

// --- Frontlines: Fuel of War LSQ (qstat's fl.c): A2S framing, its own info
// record, big-endian numbers ---

// ffowReply is the LSQ info record naming serverName.
func ffowReply([]byte) []byte {
	b := []byte("\xFF\xFF\xFF\xFF\x49\x02")
	for _, s := range []string{serverName, "CQ_Harbor", "ffow", "Conquest", "Frontlines: Fuel of War", "1.0.3"} {
		b = append(append(b, s...), 0)
	}
	b = binary.BigEndian.AppendUint16(b, 5476)     // game port
	b = append(b, 2, 32, 'd', 'w', 0, 1, 60, 1, 5) // players, max, dedicated, os, password, anticheat, fps, round, rounds
	return binary.BigEndian.AppendUint16(b, 600)   // time left
}
