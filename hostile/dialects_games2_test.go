package hostile

import (
	"encoding/binary"
	"fmt"
	"strings"
)

// Dialects of the protocols of issue 26's second round (CS2D, Hexen II, Tribes,
// Savage 2, Mafia II, the HTTP status APIs). Each layout follows the protocol
// package's testdata vectors; they join the map here so that each stays beside
// the others of its round.
func init() {
	dialects["cs2d"] = dialect{reply: cs2dReply, prefix: fixed("\x01\x00\xFB\x01"), named: true}
	dialects["tribes1"] = dialect{reply: tribesReply, prefix: tribesPrefix, named: true}
	dialects["savage2"] = dialect{reply: savage2Reply, prefix: fixed(savage2Header), named: true}
	dialects["mafia2mp"] = dialect{reply: mafia2Reply, prefix: fixed("M2MP"), named: true}
	dialects["eco"] = dialect{reply: ecoReply, prefix: httpPrefix, named: true}
	dialects["eldewrito"] = dialect{reply: eldewritoReply, prefix: httpPrefix, named: true}
	dialects["buildandshoot"] = dialect{reply: bnsReply, prefix: httpPrefix, named: true}
	dialects["assettocorsa"] = dialect{reply: acReply, prefix: httpPrefix, named: true}
	dialects["kspdmp"] = dialect{reply: kspReply, prefix: httpPrefix, named: true}
	dialects["farmingsimulator"] = dialect{reply: fsReply, prefix: httpPrefix, named: true}
	dialects["rfactor"] = dialect{reply: rfactorReply, prefix: rfactorPrefix, named: true}
	dialects["hexen2"] = dialect{reply: hexen2Reply, prefix: hexen2Prefix, named: true}
}

// --- CS2D: packet number, serverinfo message, pascal strings, then the player list ---

func cs2dReply([]byte) []byte {
	b := []byte{0x01, 0x00, 0xFB, 0x01, 0x00, byte(len(serverName))}
	b = append(b, serverName...)
	b = append(b, 5, 'a', 'i', 'm', '_', 'x', 1, 12, 0, 0) // map, players, max, bots, flags2
	b = append(b, 0xFB, 0x05, 1, 1, 3, 'B', 'o', 'b', 1, 5, 0, 0, 0, 1, 0, 0, 0)
	return b
}

// --- Hexen II: NetQuake control packets (flag 0x8000, length, op code) ---

func nqControl(op byte, body []byte) []byte {
	b := binary.BigEndian.AppendUint32(nil, 0x8000<<16|uint32(5+len(body)))
	return append(append(b, op), body...)
}

// hexen2Reply answers the server info with one player, player 0, and the end of
// the rules.
func hexen2Reply(req []byte) []byte {
	if len(req) < 5 {
		return nil
	}
	switch req[4] {
	case 0x02:
		return nqControl(0x83, []byte("127.0.0.1:26900\x00"+serverName+"\x00demo1\x00\x01\x10\x04"))
	case 0x03:
		return nqControl(0x84, []byte("\x00Bob\x00\x00\x00\x00\x00\x05\x00\x00\x00\x3C\x00\x00\x00192.0.2.1:1\x00"))
	case 0x04:
		return nqControl(0x85, nil)
	}
	return nil
}

// hexen2Prefix is the control header with the op code of the request's answer;
// the random tail makes the length field lie, as a hostile server may.
func hexen2Prefix(req []byte) []byte {
	if len(req) < 5 {
		return nil
	}
	return nqControl(req[4]|0x80, nil)
}

// --- Tribes: reply byte, the request's echo, request byte, pascal strings ---

func tribesPrefix(req []byte) []byte {
	if len(req) != 3 || req[0] != 'b' {
		return nil
	}
	return []byte{'c', req[1], req[2], 'b'}
}

func tribesReply(req []byte) []byte {
	b := tribesPrefix(req)
	if b == nil {
		return nil
	}
	for _, s := range []string{"Tribes", "1.11", serverName} {
		b = append(append(b, byte(len(s))), s...)
	}
	b = append(b, 1, 0, 1, 16, 0xC2, 0x01) // dedicated, password, players, max, cpu
	for _, s := range []string{"base", "CTF", "Raindance", "", "\x00", "", ""} {
		if s == "\x00" {
			b = append(b, 0) // no teams
			continue
		}
		b = append(append(b, byte(len(s))), s...)
	}
	return append(b, 25, 0, 0, 3, 'B', 'o', 'b', 0) // ping, loss, team, name, values
}

// --- Savage 2: a 12-byte header, NUL-terminated strings and bytes ---

const savage2Header = "\x9A\xDE\x97\xF1\x01\x01\x02\x02\x00\x00\x00\x00"

func savage2Reply([]byte) []byte {
	return []byte(savage2Header + serverName + "\x00\x03\x10Waiting\x00eden\x00eden\x00Here\x00\x02\x00HvB\x002.1\x00\x00")
}

// --- Mafia 2 Multiplayer: the tag, strings led by a length that counts itself ---

func mafia2Reply([]byte) []byte {
	b := []byte("M2MP")
	for _, s := range []string{serverName, "1", "16", "mode"} {
		b = append(append(b, byte(len(s)+1)), s...)
	}
	return append(b, 0, 4, 'B', 'o', 'b', 1)
}

// --- HTTP JSON status APIs ---

func ecoReply(req []byte) []byte {
	if p, _, _ := strings.Cut(requestPath(req), "?"); p != "/info" {
		return httpNotFound()
	}
	return httpJSON(`{"Description":"` + serverName + `","OnlinePlayers":1,"TotalPlayers":9,"MaxActivePlayers":10,"OnlinePlayersNames":["Bob"],"HasPassword":false,"Version":"0.10"}`)
}

func eldewritoReply([]byte) []byte {
	return httpJSON(`{"name":"` + serverName + `","port":11774,"map":"Valhalla","variantType":"slayer","status":"InGame","numPlayers":1,"maxPlayers":16,"players":[{"name":"Bob","score":3,"team":0}],"gameVersion":"1.106708","eldewritoVersion":"0.6.1.0"}`)
}

func bnsReply(req []byte) []byte {
	if p, _, _ := strings.Cut(requestPath(req), "?"); p != "/json" {
		return httpNotFound()
	}
	return httpJSON(`{"serverName":"` + serverName + `","serverVersion":"1.0","gameMode":"ctf","map":{"name":"hallway"},"players":[{"name":"Bob","latency":40,"kills":1,"team":"Blue"}],"maxPlayers":32}`)
}

func acReply(req []byte) []byte {
	switch p := requestPath(req); {
	case p == "/INFO":
		return httpJSON(`{"name":"` + serverName + `","clients":1,"maxclients":24,"track":"monza","pass":false,"poweredBy":"1.16"}`)
	case strings.HasPrefix(p, "/JSON|"):
		return httpJSON(`{"Cars":[{"Model":"bmw_m3_e30","DriverName":"Bob","IsConnected":true}]}`)
	}
	return httpNotFound()
}

func kspReply([]byte) []byte {
	return httpJSON(`{"server_name":"` + serverName + `","player_count":1,"max_players":12,"players":"Bob","version":"v0.2","game_mode":"SANDBOX"}`)
}

// fsReply serves the stats feed whatever the code (the built-in module has none).
func fsReply(req []byte) []byte {
	if p, _, _ := strings.Cut(requestPath(req), "?"); p != "/feed/dedicated-server-stats.xml" {
		return httpNotFound()
	}
	body := `<Server game="Farming Simulator 22" version="1.14" name="` + serverName + `" mapName="Elmcreek"><Slots capacity="16" numUsed="1"><Player isUsed="true" uptime="5">Bob</Player></Slots></Server>`
	return []byte(fmt.Sprintf("HTTP/1.1 200 OK\r\nContent-Type: text/xml\r\nContent-Length: %d\r\nConnection: close\r\n\r\n%s", len(body), body))
}

// --- rFactor: fixed-size fields ---

func rfactorReply([]byte) []byte {
	b := make([]byte, 0, 260)
	pad := func(s string, n int) { b = append(b, s...); b = append(b, make([]byte, n-len(s))...) }
	pad("rFactor", 8)
	b = append(b, make([]byte, 1+2+4+2+2+2+2+2)...)
	pad("rFactor", 20)
	pad(serverName, 28)
	pad("Mills", 32)
	pad("", 96)
	b = append(b, 0, 0, 0, 0, 0, 0, 2, 20, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
	return append(b, "GT"...)
}

func rfactorPrefix(req []byte) []byte { return rfactorReply(req)[:8] }
