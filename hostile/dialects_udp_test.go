package hostile

import (
	"bytes"
	"encoding/binary"

	"github.com/gameserver-exporter/gameserver_exporter/protocols/ventrilo"
)

// Dialects built here rather than read from a protocol's vectors: replies that
// echo a request's text, start with the request, or hold tokens a handshake set.

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

// qr2 answers the handshake, then the stat request with the vector at path,
// the request's session echoed.
func qr2(path string) func([]byte) []byte {
	stat := echoed(path, 1, span(3, 7))
	return func(req []byte) []byte {
		if isQR2Handshake(req) {
			return qr2Challenge(req)
		}
		return stat(req)
	}
}

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

// --- Cube 2 (Sauerbraten): replies start with the request they answer ---

// cube2Info is the info request: 0x81 and an int32 ping (the querier's are all
// above 2^24, so never one byte).
func cube2Info(req []byte) bool { return len(req) == 5 && req[0] == 0x81 }

// cube2Ping is the echo of the info request's ping (the extinfo requests carry
// no token).
func cube2Ping(req []byte) (int, int) {
	if cube2Info(req) {
		return 1, 5
	}
	return 0, 0
}

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

// --- Armagetron: the small request (descriptor 52) gets the small info, the
// big one the big info ---

func armagetronReply(req []byte) []byte {
	if len(req) >= 2 && binary.BigEndian.Uint16(req) == 52 {
		return readVector("armagetron/testdata/small_info_real_layout.hex")
	}
	return readVector("armagetron/testdata/players_colours.hex")
}

// armagetronPrefix is a valid small info for the small request, and a big-info
// message header (descriptor 51, id 0) for the big one: the random bytes behind
// it are its length and data.
func armagetronPrefix(req []byte) []byte {
	if len(req) >= 2 && binary.BigEndian.Uint16(req) == 52 {
		return armagetronReply(req)
	}
	return []byte{0x00, 0x33, 0x00, 0x00}
}

// --- Teeworlds 0.7: token handshake, then a connectionless gie3 answered by inf3 ---

// The auto mode sends a 0.6 gie3 beside the 0.7 token request; this server
// speaks 0.7 only and ignores the former.
const (
	tw07TokenRequestLen = 7 + 1 + 512 // header, NET_CTRLMSG_TOKEN, padding
	tw07ServerToken     = "\x0e\x72\x4c\x45"
)

func tw07TokenRequest(req []byte) bool { return len(req) == tw07TokenRequestLen && req[7] == 5 }

// tw07Token is the echo of our token in the 0.7 token request.
func tw07Token(req []byte) (int, int) {
	if tw07TokenRequest(req) {
		return 8, 12
	}
	return 0, 0
}

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

// sampVectors are the package's replies to each opcode; others get an empty list.
var sampVectors = map[byte]string{'i': "info_samp.hex", 'r': "rules_samp.hex", 'c': "players_c.hex", 'd': "players_d.hex"}

func sampReply(req []byte) []byte {
	b := sampPrefix(req)
	if v, ok := sampVectors[b[10]]; ok {
		return append(b, readVector("samp/testdata/" + v)[11:]...)
	}
	return append(b, 0, 0)
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

// --- Tribes: reply byte, the request's echo, request byte ---

func tribesPrefix(req []byte) []byte {
	if len(req) != 3 || req[0] != 'b' {
		return nil
	}
	return []byte{'c', req[1], req[2], 'b'}
}

func tribesReply(req []byte) []byte {
	if tribesPrefix(req) == nil {
		return nil
	}
	return echoed("tribes1/testdata/tribes.vec", 1, span(1, 3))(req)
}

// --- Hexen II: NetQuake control packets (flag 0x8000, length, op code) ---

// hexen2Prefix is the control header with the op code of the request's answer;
// the random tail makes the length field lie, as a hostile server may.
func hexen2Prefix(req []byte) []byte {
	if len(req) < 5 {
		return nil
	}
	return append(binary.BigEndian.AppendUint32(nil, 0x8000<<16|5), req[4]|0x80)
}
