package hostile

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"math"
	"strings"
)

// Dialects of the TCP protocols added after the first round: OpenTTD's binary
// game info, TeamSpeak 2, Soldat, Nadeo's GbxRemote, StarMade, and the HTTP JSON
// APIs of Palworld and TShock (Terraria). The
// HTTP querier opens one connection per request (no keep-alive), so a server
// answering one request per connection serves all of them.

// --- OpenTTD: u16 LE size (counting itself), u8 type, NetworkGameInfo ---

// openttdReply is PACKET_SERVER_GAME_INFO (type 6) with game info version 7:
// ticks playing, NewGRF serialisation, no game script, no NewGRF, dates,
// companies, name, revision, password, clients, map size, landscape, dedicated.
func openttdReply([]byte) []byte {
	b := []byte{0, 0, 6, 7}
	b = binary.LittleEndian.AppendUint64(b, 123456789)
	b = append(b, 1, 0xFF, 0xFF, 0xFF, 0xFF, 0, 0) // serialisation, script version -1, no script, 0 NewGRFs
	b = binary.LittleEndian.AppendUint32(b, 0x000B2408)
	b = binary.LittleEndian.AppendUint32(b, 0x000B229B)
	b = append(b, 8, 1, 10)
	b = append(b, serverName+"\x0014.1\x00"...)
	b = append(b, 0, 12, 1, 0, 0x40, 0, 0x40, 0, 0, 1)
	binary.LittleEndian.PutUint16(b, uint16(len(b)))
	return b
}

// openttdPrefix announces a 256-byte game info packet, version 7: the random
// bytes behind it are its fields (or end it early).
func openttdPrefix([]byte) []byte { return []byte{0x00, 0x01, 6, 7} }

// --- HTTP JSON (Palworld REST API, TShock REST API) ---

// requestPath is the path of an HTTP request line, query string included.
func requestPath(req []byte) string {
	line, _, _ := bytes.Cut(req, []byte("\r\n"))
	f := strings.Fields(string(line))
	if len(f) < 2 {
		return ""
	}
	return f[1]
}

// httpHead is a 200 response head with a JSON type; the body runs to the close.
const httpHead = "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nConnection: close\r\n"

func httpPrefix([]byte) []byte { return []byte(httpHead + "\r\n") }

func httpJSON(body string) []byte {
	return []byte(fmt.Sprintf("%sContent-Length: %d\r\n\r\n%s", httpHead, len(body), body))
}

func httpNotFound() []byte {
	return []byte("HTTP/1.1 404 Not Found\r\nContent-Length: 0\r\nConnection: close\r\n\r\n")
}

// palworldReply answers /v1/api/info, /metrics and /players (field names of
// Pocketpair's REST API reference, as in the package's testdata).
func palworldReply(req []byte) []byte {
	switch p, _, _ := strings.Cut(requestPath(req), "?"); p {
	case "/v1/api/info":
		return httpJSON(`{"version":"v0.6.1.67543","servername":"` + serverName + `","description":"Pals","worldguid":"A9E4B8F20D3C4B1E9F6A7C5D2E1B0F3A"}`)
	case "/v1/api/metrics":
		return httpJSON(`{"serverfps":59,"currentplayernum":1,"serverframetime":16.9,"maxplayernum":32,"uptime":86523,"days":41,"basecampnum":7}`)
	case "/v1/api/players":
		return httpJSON(`{"players":[{"name":"Bob","accountName":"bob","playerId":"7E4B2A10","userId":"steam_1","ip":"203.0.113.7","ping":23.4,"location_x":1,"location_y":2,"level":27,"building_count":3}]}`)
	}
	return httpNotFound()
}

// terrariaReply answers TShock's /v2/server/status (body status "200", as TShock
// puts its own status in the body).
func terrariaReply(req []byte) []byte {
	if p, _, _ := strings.Cut(requestPath(req), "?"); p != "/v2/server/status" {
		return httpNotFound()
	}
	return httpJSON(`{"status":"200","name":"` + serverName + `","serverversion":"v1.4.4.9","tshockversion":"5.2.1.0",` +
		`"port":7777,"playercount":1,"maxplayers":8,"world":"Dirtmouth","uptime":"0.00:05:59","serverpassword":false,` +
		`"players":[{"nickname":"Bob","username":"","group":"guest","active":true,"state":10,"team":0}]}`)
}

// --- TeamSpeak 2 TCP query: "[TS]" greeting; sel, si, then quit ---

const ts2Greeting = "[TS]\r\n"

// ts2Reply answers `sel` and, ahead of the client asking, `si`: the fake servers
// answer one read, so the whole rest of the exchange goes at once.
func ts2Reply([]byte) []byte {
	return []byte("OK\r\nserver_name=" + serverName + "\r\nserver_password=0\r\nserver_maxusers=32\r\nserver_currentusers=2\r\nOK\r\n")
}

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
	str(serverName, 24)
	for range slots - 1 {
		str("", 24)
	}
	for range slots {
		str("", 11) // hardware ids
	}
	r = append(append(r, 1), bytes.Repeat([]byte{255}, slots-1)...) // teams
	r = append(r, make([]byte, slots*2+slots+slots*2)...)           // kills, caps, deaths
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

// --- Nadeo GbxRemote (qstat's tm.c, the dedicated server's XML-RPC): a
// length-prefixed "GBXRemote 2" handshake, then calls and answers framed by a
// length and a handle ---

var nadeoGreeting = append(binary.LittleEndian.AppendUint32(nil, 11), "GBXRemote 2"...)

// nadeoFrame frames an answer body with the handle of the n-th call.
func nadeoFrame(n int, body string) []byte {
	b := binary.LittleEndian.AppendUint32(nil, uint32(len(body)))
	b = binary.LittleEndian.AppendUint32(b, 0x80000000+uint32(n))
	return append(b, body...)
}

func nadeoValue(v string) string {
	return `<?xml version="1.0"?><methodResponse><params><param><value>` + v + `</value></param></params></methodResponse>`
}

func nadeoStruct(kv ...string) string {
	s := "<struct>"
	for i := 0; i+1 < len(kv); i += 2 {
		s += fmt.Sprintf("<member><name>%s</name><value>%s</value></member>", kv[i], kv[i+1])
	}
	return nadeoValue(s + "</struct>")
}

// nadeoReply answers Authenticate and, ahead of the client asking (the fake
// servers answer one read), the five calls that follow it.
func nadeoReply([]byte) []byte {
	var b []byte
	for i, body := range []string{
		nadeoValue("<boolean>1</boolean>"),
		nadeoValue("<string>" + serverName + "</string>"),
		nadeoStruct("CurrentValue", "<i4>32</i4>", "NextValue", "<i4>32</i4>"),
		nadeoStruct("Name", "<string>ManiaPlanet</string>", "Version", "<string>3.3.0</string>"),
		nadeoStruct("Name", "<string>Hostile Map</string>"),
		nadeoValue("<array><data><value><struct><member><name>NickName</name><value>a</value></member></struct></value></data></array>"),
	} {
		b = append(b, nadeoFrame(i, body)...)
	}
	return b
}

// nadeoPrefix heads a 248-byte answer to Authenticate: the random bytes behind
// it are its XML (or end it early: truncated).
func nadeoPrefix([]byte) []byte {
	return binary.LittleEndian.AppendUint32(binary.LittleEndian.AppendUint32(nil, 248), 0x80000000)
}

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
