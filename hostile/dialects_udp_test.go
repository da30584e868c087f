package hostile

import (
	"bytes"
	"encoding/binary"

	"github.com/gameserver-exporter/gameserver_exporter/protocols/ventrilo"
)

// Dialects of the UDP protocols added after the first round: the id Tech
// family (DarkPlaces, Quake II, QuakeWorld, FiveM's getinfo), GameSpy v3 and v4,
// Cube 2, Armagetron, Mumble, Teeworlds, SA-MP, Ventrilo and Frontlines: Fuel of
// War. Each layout follows the protocol package's testdata vectors (or qstat's).

// --- id Tech text replies: "\xFF\xFF\xFF\xFF<keyword>\n\info\nplayer lines" ---

const oob = "\xFF\xFF\xFF\xFF"

// challengeAfter returns what follows cmd in req: the token a reply echoes as
// its challenge key.
func challengeAfter(req []byte, cmd string) string {
	rest, ok := bytes.CutPrefix(req, []byte(oob+cmd))
	if !ok {
		return ""
	}
	return string(rest)
}

// darkplacesReply answers `getstatus <challenge>` (no newline after it) with a
// Xonotic statusResponse echoing the challenge, one player line `frags ping "name"`.
func darkplacesReply(req []byte) []byte {
	return []byte(oob + "statusResponse\n\\gamename\\Xonotic\\modname\\data\\sv_maxclients\\16\\clients\\1\\bots\\0" +
		"\\mapname\\stormkeep\\hostname\\" + serverName + "\\protocol\\3\\challenge\\" +
		challengeAfter(req, "getstatus ") + "\n12 48 \"Bob\"\n")
}

// quake2Reply is a Quake II `print` status reply: serverinfo, then `score ping "name"`.
func quake2Reply([]byte) []byte {
	return []byte(oob + "print\n\\hostname\\" + serverName + "\\mapname\\q2dm1\\maxclients\\8\\gamename\\baseq2\n3 50 \"Bob\"\n")
}

// quakeworldReply is a QuakeWorld `n` status reply: serverinfo, then
// `userid frags time ping "name" "skin" top bottom`, then the NUL qwsv ends it with.
func quakeworldReply([]byte) []byte {
	return []byte(oob + "n\\hostname\\" + serverName + "\\map\\dm6\\maxclients\\8\\*gamedir\\qw\n3 12 5 48 \"Bob\" \"base\" 4 4\n\x00")
}

// fivemReply is FXServer's infoResponse to `getinfo <challenge>`, key order of
// its GetInfoOutOfBand, the challenge echoed.
func fivemReply(req []byte) []byte {
	return []byte(oob + "infoResponse\n\\sv_maxclients\\48\\clients\\1\\challenge\\" + challengeAfter(req, "getinfo ") +
		"\\gamename\\CitizenFX\\protocol\\4\\hostname\\" + serverName + "\\gametype\\Freeroam\\mapname\\fivem-map-skater\\iv\\-1795624713")
}

// --- GameSpy v3 / v4 (QR2): FE FD <type> <session> ..., replies echo the session ---

// qr2Session is the session id of a QR2 request (bytes 3-6).
func qr2Session(req []byte) []byte {
	s := make([]byte, 4)
	if len(req) >= 7 {
		copy(s, req[3:7])
	}
	return s
}

// qr2Challenge answers the handshake (FE FD 09): 09, the session, a decimal token.
func qr2Challenge(req []byte) []byte {
	return append(append([]byte{0x09}, qr2Session(req)...), "9513307\x00"...)
}

func isQR2Handshake(req []byte) bool { return len(req) >= 3 && req[2] == 0x09 }

// qr2StatHeader is a stat reply's 16-byte header: 00, the session, "splitnum\0",
// the packet number (0x80: the last) and the section of its first item.
func qr2StatHeader(req []byte, num, section byte) []byte {
	b := append([]byte{0x00}, qr2Session(req)...)
	return append(append(b, "splitnum\x00"...), num, section)
}

// gamespy3Body is a whole stat reply body: K/V pairs ended by an empty key, the
// player table (field name, start row, values, empty value) and the team table.
const gamespy3Body = "hostname\x00" + serverName + "\x00gamename\x00battlefield2\x00mapname\x00Strike At Karkand\x00" +
	"numplayers\x001\x00maxplayers\x0016\x00\x00" +
	"\x01player_\x00\x00Bob\x00\x00score_\x00\x003\x00\x00ping_\x00\x0040\x00\x00\x00" +
	"\x02team_t\x00\x00MEC\x00US\x00\x00\x00"

func gamespy3Prefix(req []byte) []byte {
	if isQR2Handshake(req) {
		return qr2Challenge(req)
	}
	return qr2StatHeader(req, 0x80, 0)
}

func gamespy3Reply(req []byte) []byte {
	if isQR2Handshake(req) {
		return qr2Challenge(req)
	}
	return append(qr2StatHeader(req, 0x80, 0), gamespy3Body...)
}

// gamespy3Parts is a stat reply in three packets (numbers 0, 1 and 2, the last
// flagged), the player table continuing from the second into the third.
func gamespy3Parts(req []byte) [][]byte {
	return [][]byte{
		append(qr2StatHeader(req, 0, 0), "hostname\x00"+serverName+"\x00gamename\x00battlefield2\x00mapname\x00Strike At Karkand\x00"...),
		append(qr2StatHeader(req, 1, 0), "numplayers\x002\x00maxplayers\x0016\x00\x00\x01player_\x00\x00Alice\x00\x00"...),
		append(qr2StatHeader(req, 0x82, 1), "player_\x00\x01Bob\x00\x00\x00\x02team_t\x00\x00MEC\x00US\x00\x00\x00"...),
	}
}

// gamespy4Reply answers the handshake, then the full stat request (Minecraft's
// query: K/V pairs, then the player names).
func gamespy4Reply(req []byte) []byte {
	if isQR2Handshake(req) {
		return qr2Challenge(req)
	}
	b := qr2StatHeader(req, 0x80, 0)
	b = append(b, "hostname\x00"+serverName+"\x00gametype\x00SMP\x00game_id\x00MINECRAFT\x00version\x001.20.4\x00"+
		"plugins\x00\x00map\x00world\x00numplayers\x001\x00maxplayers\x0020\x00hostport\x0025565\x00hostip\x00127.0.0.1\x00\x00"...)
	return append(b, "\x01player_\x00\x00Bob\x00\x00"...)
}

// --- Cube 2 (Sauerbraten): replies start with the request they answer ---

// cube2Info is the info request: 0x81 and an int32 ping (the querier's are all
// above 2^24, so never one byte).
func cube2Info(req []byte) bool { return len(req) == 5 && req[0] == 0x81 }

// cube2Reply answers the info request (clients, five attributes: protocol 260,
// mode, seconds left, max clients, master mode; map; description), the
// EXT_PLAYERSTATS list (no clients, so no per-client datagrams) and EXT_UPTIME.
func cube2Reply(req []byte) []byte {
	b := bytes.Clone(req)
	switch {
	case cube2Info(req):
		b = append(b, 0x01, 0x05, 0x80, 0x04, 0x01, 0x00, 0x80, 0x2C, 0x01, 0x10, 0x00)
		return append(b, "complex\x00"+serverName+"\x00"...)
	case bytes.Equal(req, []byte{0x00, 0x01, 0xFF}):
		return append(b, 0xFF, 0x69, 0x00, 0xF6) // ack, version 105, no error, ids: none
	case bytes.Equal(req, []byte{0x00, 0x00}):
		return append(b, 0xFF, 0x69, 0x80, 0x10, 0x0E) // ack, version 105, uptime 3600
	}
	return nil
}

// --- Armagetron: messages of BE u16 descriptor, id, length in words; a sender-id trailer ---

// armaString is an Armagetron string: a length counting the NUL (0 for ""),
// then words carrying two characters, the earlier one in the low byte.
func armaString(s string) []byte {
	if s == "" {
		return []byte{0, 0}
	}
	p := s + "\x00"
	if len(p)%2 == 1 {
		p += "\x00"
	}
	b := binary.BigEndian.AppendUint16(nil, uint16(len(s)+1))
	for i := 0; i < len(p); i += 2 {
		b = append(b, p[i+1], p[i])
	}
	return b
}

// armaUint is an integer as two words, low word first.
func armaUint(v uint32) []byte {
	return binary.BigEndian.AppendUint16(binary.BigEndian.AppendUint16(nil, uint16(v)), uint16(v>>16))
}

// armaMessage is a datagram of one message of descriptor desc, then the trailer.
func armaMessage(desc uint16, data []byte) []byte {
	b := binary.BigEndian.AppendUint16(nil, desc)
	b = append(b, 0, 0)
	b = binary.BigEndian.AppendUint16(b, uint16(len(data)/2))
	return append(append(b, data...), 0, 0)
}

func armaDesc(req []byte) uint16 {
	if len(req) < 2 {
		return 0
	}
	return binary.BigEndian.Uint16(req)
}

// armagetronReply answers the small request (52) with the small info (50) and
// the big request (53) with the big info (51), as 0.2.9 does.
func armagetronReply(req []byte) []byte {
	if armaDesc(req) == 52 {
		return armaMessage(50, append(append(armaUint(4534), armaString("")...), armaUint(0)...))
	}
	var d []byte
	d = append(d, armaUint(4534)...)
	d = append(d, armaString("")...) // hostname
	d = append(d, armaString(serverName)...)
	d = append(d, armaUint(1)...)  // players
	d = append(d, armaUint(0)...)  // version min
	d = append(d, armaUint(17)...) // version max
	d = append(d, armaString("0.2.9.1_alpha20230222 unix dedicated")...)
	d = append(d, armaUint(16)...) // max players
	d = append(d, armaString("Bob\n")...)
	d = append(d, armaString("")...) // options
	d = append(d, armaString("")...) // url
	d = append(d, armaString("")...) // global ids
	return armaMessage(51, d)
}

// armagetronPrefix is a valid small info for the small request, and a big-info
// message header (descriptor 51, id 0) for the big one: the random bytes behind
// it are its length and data.
func armagetronPrefix(req []byte) []byte {
	if armaDesc(req) == 52 {
		return armagetronReply(req)
	}
	return []byte{0x00, 0x33, 0x00, 0x00}
}

// --- Mumble: the legacy UDP ping, 00000000 + an 8-byte identifier the reply echoes ---

func mumblePrefix(req []byte) []byte {
	b := []byte{0x00, 0x01, 0x04, 0x07} // version 1.4.7
	if len(req) >= 12 {
		return append(b, req[4:12]...)
	}
	return append(b, make([]byte, 8)...)
}

func mumbleReply(req []byte) []byte {
	b := mumblePrefix(req)
	b = binary.BigEndian.AppendUint32(b, 1)        // users
	b = binary.BigEndian.AppendUint32(b, 50)       // max users
	return binary.BigEndian.AppendUint32(b, 72000) // bandwidth
}

// --- Teeworlds 0.7: token handshake, then a connectionless gie3 answered by inf3 ---

// The auto mode sends a 0.6 gie3 beside the 0.7 token request; this server
// speaks 0.7 only and ignores the former.
const (
	tw07TokenRequestLen = 7 + 1 + 512 // header, NET_CTRLMSG_TOKEN, padding
	tw07ServerToken     = "\x0e\x72\x4c\x45"
)

func tw07TokenRequest(req []byte) bool { return len(req) == tw07TokenRequestLen && req[7] == 5 }

// tw07InfoRequest: connectionless (flags 8<<2 | version 1), the server's token,
// the client's, "\xFF\xFF\xFF\xFFgie3" and the browser token.
func tw07InfoRequest(req []byte) bool {
	return len(req) > 17 && req[0] == 0x21 && string(req[9:17]) == oob+"gie3"
}

// teeworldsPrefix answers the token request with the server's token, addressed
// to the client's (bytes 8-11 of the request), and the info request with the
// inf3 header: connectionless, the client's token, the server's, "inf3", the
// browser token echoed. A 0.6 request gets nothing.
func teeworldsPrefix(req []byte) []byte {
	switch {
	case tw07TokenRequest(req):
		return append(append([]byte{0x04, 0x00, 0x00}, req[8:12]...), append([]byte{0x05}, tw07ServerToken...)...)
	case tw07InfoRequest(req):
		b := append([]byte{0x21}, req[5:9]...)
		b = append(b, tw07ServerToken...)
		b = append(b, oob+"inf3"...)
		return append(b, req[17:]...) // the packed browser token
	}
	return nil
}

// teeworldsReply: version, name, hostname, map, game type, then packed ints
// (flags, skill, players, max players, clients, max clients) and one client
// (name, clan, country -1, score 3, flags 0).
func teeworldsReply(req []byte) []byte {
	b := teeworldsPrefix(req)
	if !tw07InfoRequest(req) {
		return b
	}
	b = append(b, "0.7.5\x00"+serverName+"\x00\x00ctf5\x00CTF\x00"...)
	b = append(b, 0x00, 0x00, 0x01, 0x10, 0x01, 0x10)
	return append(b, "Bob\x00\x00\x40\x03\x00"...)
}

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

// --- Ventrilo detailed status (qstat's ventrilo.c): encrypted header echoing
// the request's id, "KEY: value" lines; ventrilo.Answer seals the header ---

const ventriloStatus = "NAME: " + serverName + "\nAUTH: 0\nMAXCLIENTS: 8\nCLIENTCOUNT: 1\nCLIENT: CID=0,PING=20,SEC=5,NAME=a\n"

func ventriloReply(req []byte) []byte {
	return ventrilo.Answer(req, []byte(ventriloStatus), len(ventriloStatus))
}

// ventriloPrefix heads an answer declaring 256 data bytes: the random bytes
// behind it are the status text (or end it early: truncated).
func ventriloPrefix(req []byte) []byte { return ventrilo.Answer(req, nil, 256) }

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
