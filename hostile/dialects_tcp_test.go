package hostile

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"path/filepath"
	"strings"
)

// Dialects of the TCP protocols built here: TeamSpeak 2, Soldat's console,
// Nadeo's framing, StarMade's and OpenTTD's headers, and the HTTP status APIs
// serving their package's JSON (or XML) files. The HTTP querier opens one
// connection per request (no keep-alive), so a server answering one request per
// connection serves all of them.

// openttdPrefix announces a 256-byte game info packet, version 7: the random
// bytes behind it are its fields (or end it early).
func openttdPrefix([]byte) []byte { return []byte{0x00, 0x01, 6, 7} }

// --- HTTP status APIs ---

// requestPath is the path of an HTTP request line, query string aside.
func requestPath(req []byte) string {
	line, _, _ := bytes.Cut(req, []byte("\r\n"))
	f := strings.Fields(string(line))
	if len(f) < 2 {
		return ""
	}
	p, _, _ := strings.Cut(f[1], "?")
	return p
}

// httpHead is a 200 response head with a JSON type; the body runs to the close.
const httpHead = "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nConnection: close\r\n"

func httpPrefix([]byte) []byte { return []byte(httpHead + "\r\n") }

// served answers a request whose path starts with a route's prefix with
// protocols/<proto>/testdata/<file>, any other with 404: routes alternate
// prefix and file.
func served(proto string, routes ...string) func([]byte) []byte {
	return func(req []byte) []byte {
		for i := 0; i+1 < len(routes); i += 2 {
			if strings.HasPrefix(requestPath(req), routes[i]) {
				body := readVector(proto + "/testdata/" + routes[i+1])
				ctype := "application/" + strings.TrimPrefix(filepath.Ext(routes[i+1]), ".")
				return fmt.Appendf(nil, "HTTP/1.1 200 OK\r\nContent-Type: %s\r\nContent-Length: %d\r\nConnection: close\r\n\r\n%s", ctype, len(body), body)
			}
		}
		return []byte("HTTP/1.1 404 Not Found\r\nContent-Length: 0\r\nConnection: close\r\n\r\n")
	}
}

// --- TeamSpeak 2 TCP query: "[TS]" greeting; sel, si, then quit ---

const ts2Greeting = "[TS]\r\n"

// ts2Reply answers `sel` and, ahead of the client asking, `si`: the fake servers
// answer one read, so the whole rest of the exchange goes at once.
func ts2Reply([]byte) []byte {
	return []byte("OK\r\nserver_name=" + serverName + "\r\nserver_password=0\r\nserver_maxusers=32\r\nserver_currentusers=2\r\nOK\r\n")
}

// --- Soldat admin connection (server/Rcon.pas): greeting, password line,
// welcome and version, then the REFRESHX record ---

const soldatGreeting = "Soldat Admin Connection Established.\r\n"

// soldatReply answers the password (harness: "hostile") with the welcome and,
// ahead of the client asking, the REFRESHX record.
func soldatReply([]byte) []byte {
	b := []byte("Welcome, you are in command of the server now.\r\nList of commands available in the Soldat game Manual.\r\nServer Version: 1.8.0\r\n")
	return append(b, readVector("soldat/testdata/refreshx_ctf.hex")...)
}

// soldatPrefix is the welcome: the random bytes behind it are the console lines
// and the record.
func soldatPrefix([]byte) []byte {
	return []byte("Welcome, you are in command of the server now.\r\nServer Version: 1\r\n")
}

// --- Nadeo GbxRemote (qstat's tm.c, the dedicated server's XML-RPC): a
// length-prefixed "GBXRemote 2" handshake, then calls and answers framed by a
// length and a handle ---

var nadeoGreeting = append(binary.LittleEndian.AppendUint32(nil, 11), "GBXRemote 2"...)

// nadeoReply answers Authenticate and, ahead of the client asking (the fake
// servers answer one read), the five calls that follow it, each answer framed
// with the handle of its call.
func nadeoReply([]byte) []byte {
	var b []byte
	for i, name := range []string{"auth_ok", "name", "maxplayers", "version_maniaplanet", "map_maniaplanet", "players"} {
		body := readVector("nadeo/testdata/" + name + ".xml")
		b = binary.LittleEndian.AppendUint32(b, uint32(len(body)))
		b = binary.LittleEndian.AppendUint32(b, 0x80000000+uint32(i))
		b = append(b, body...)
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
