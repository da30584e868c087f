package hostile

// Dialects of the protocols of issue 26's second round (CS2D, Hexen II, Tribes,
// Savage 2, Mafia II, the HTTP status APIs). Each layout follows the protocol
// package's testdata vectors; they join the map here so that each stays beside
// the others of its round.
func init() {
	dialects["cs2d"] = dialect{reply: cs2dReply, prefix: fixed("\x01\x00\xFB\x01"), named: true}
}

// --- CS2D: packet number, serverinfo message, pascal strings, then the player list ---

func cs2dReply([]byte) []byte {
	b := []byte{0x01, 0x00, 0xFB, 0x01, 0x00, byte(len(serverName))}
	b = append(b, serverName...)
	b = append(b, 5, 'a', 'i', 'm', '_', 'x', 1, 12, 0, 0) // map, players, max, bots, flags2
	b = append(b, 0xFB, 0x05, 1, 1, 3, 'B', 'o', 'b', 1, 5, 0, 0, 0, 1, 0, 0, 0)
	return b
}
