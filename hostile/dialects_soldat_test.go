package hostile

import "encoding/binary"

// --- Soldat admin connection (server/Rcon.pas): greeting, password line,
// welcome and version, then the 2002-byte REFRESHX record ---

const soldatGreeting = "Soldat Admin Connection Established.\r\n"

// soldatReply answers the password (harness: "hostile") with the welcome and,
// ahead of the client asking, the REFRESHX record: one player named serverName.
func soldatReply([]byte) []byte {
	b := []byte("Welcome, you are in command of the server now.\r\nList of commands available in the Soldat game Manual.\r\nServer Version: 1.8.0\r\n")
	return append(b, soldatRecord()...)
}

// soldatPrefix is the welcome: the random bytes behind it are the console lines
// and the record.
func soldatPrefix([]byte) []byte {
	return []byte("Welcome, you are in command of the server now.\r\nServer Version: 1\r\n")
}

// soldatRecord is a REFRESHX record (packed, little-endian, 32 slots).
func soldatRecord() []byte {
	const slots = 32
	r := []byte("REFRESHX\r\n")
	str := func(s string, n int) {
		r = append(r, byte(len(s)))
		r = append(r, s...)
		r = append(r, make([]byte, n-len(s))...)
	}
	for i := range slots {
		if i == 0 {
			str(serverName, 24)
		} else {
			str("", 24)
		}
	}
	for range slots {
		str("", 11) // hardware ids
	}
	for i := range slots { // teams
		if i == 0 {
			r = append(r, 1)
		} else {
			r = append(r, 255)
		}
	}
	r = append(r, make([]byte, slots*2+slots+slots*2)...) // kills, caps, deaths
	for range slots {
		r = binary.LittleEndian.AppendUint32(r, 40) // pings
	}
	r = append(r, make([]byte, slots)...)             // numbers
	r = append(r, 192, 0, 2, 1)                       // the one player's address
	r = append(r, make([]byte, (slots-1)*4)...)       // the empty slots'
	r = append(r, make([]byte, slots*4*2+4*4+4*2)...) // positions, flags, team scores
	str("ctf_Ash", 16)
	r = append(r, make([]byte, 4+4+2)...) // time limit, time left, kill limit
	r = append(r, 3, 16, 10, 0)           // style, max players, max spectators, password
	str("ctf_Cobra", 16)
	return r
}
