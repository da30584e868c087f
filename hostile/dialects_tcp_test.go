package hostile

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"strings"
)

// Dialects of the TCP protocols added after the first round: OpenTTD's binary
// game info, and the HTTP JSON APIs of Palworld and TShock (Terraria). The
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
