package hostile

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"strings"
	"unicode/utf16"
)

// serverName is the name every well-formed fake reply carries.
const serverName = "Hostile"

// dialect is what the fake servers know of one protocol: a valid reply to a
// request (built from the protocol's spec, echoing what must be echoed), and a
// header that passes the querier's accept check, behind which random bytes reach
// the decoder.
type dialect struct {
	reply  func(req []byte) []byte
	prefix func(req []byte) []byte
	// named: the reply carries serverName (checked on success); Hytale has no name.
	named bool
	// greeting is what a TCP server sends on accept, before it reads the request
	// (TeamSpeak 3's ServerQuery speaks first); nil when the client speaks first.
	greeting []byte
}

// dialects is keyed by protocol (module) name. A registered protocol missing here
// still gets the cases that need no reply (silence, closed port, random...). A
// nil reply or prefix is no answer: the server ignores that request (Teeworlds'
// 0.6 gie3 beside the 0.7 token request).
var dialects = map[string]dialect{
	"a2s":          {reply: func([]byte) []byte { return a2sInfo() }, prefix: fixed("\xFF\xFF\xFF\xFF\x49"), named: true},
	"goldsrc":      {reply: func([]byte) []byte { return a2sInfo() }, prefix: fixed("\xFF\xFF\xFF\xFF\x6D"), named: true},
	"quake3":       {reply: quake3Reply, prefix: fixed("\xFF\xFF\xFF\xFFstatusResponse\n"), named: true},
	"doom3":        {reply: doom3Reply, prefix: doom3Prefix, named: true},
	"gamespy1":     {reply: func([]byte) []byte { return []byte(gs1Single) }, prefix: fixed(`\`), named: true},
	"gamespy2":     {reply: gamespy2Reply, prefix: gamespy2Prefix, named: true},
	"ase":          {reply: func([]byte) []byte { return aseReply(0) }, prefix: fixed("EYE1"), named: true},
	"savage":       {reply: savageReply, prefix: savagePrefix, named: true},
	"satisfactory": {reply: satisfactoryReply, prefix: satisfactoryPrefix, named: true},
	"skycoop":      {reply: skycoopReply, prefix: fixed("\x93\x00\x00\x00"), named: true},
	"hytale":       {reply: func([]byte) []byte { return []byte("OK 3 10\n") }, prefix: fixed("OK ")},
	"minecraft":    {reply: minecraftReply, prefix: fixed("\xE8\x07\x00"), named: true}, // a 1000-byte status frame
	"bedrock":      {reply: bedrockReply, prefix: bedrockPrefix, named: true},
	"unreal2":      {reply: unreal2Reply, prefix: unreal2Prefix, named: true},
	"frostbite":    {reply: frostbiteReply, prefix: frostbitePrefix, named: true},
	"teamspeak3":   {reply: ts3Reply, prefix: fixed(ts3OK), named: true, greeting: []byte(ts3Greeting)},
	// dialects_udp_test.go
	"darkplaces": {reply: darkplacesReply, prefix: fixed(oob + "statusResponse\n"), named: true},
	"quake2":     {reply: quake2Reply, prefix: fixed(oob + "print\n"), named: true},
	"quakeworld": {reply: quakeworldReply, prefix: fixed(oob + "n"), named: true},
	"gamespy3":   {reply: gamespy3Reply, prefix: gamespy3Prefix, named: true},
	"gamespy4":   {reply: gamespy4Reply, prefix: gamespy3Prefix, named: true},
	"cube2":      {reply: cube2Reply, prefix: bytes.Clone, named: true},
	"armagetron": {reply: armagetronReply, prefix: armagetronPrefix, named: true},
	"mumble":     {reply: mumbleReply, prefix: mumblePrefix}, // the ping reply has no name
	"teeworlds":  {reply: teeworldsReply, prefix: teeworldsPrefix, named: true},
	"fivem":      {reply: fivemReply, prefix: fixed(oob + "infoResponse\n"), named: true},
	"ffow":       {reply: ffowReply, prefix: fixed("\xFF\xFF\xFF\xFF\x49"), named: true},
	"samp":       {reply: sampReply, prefix: sampPrefix, named: true},
	"ventrilo":   {reply: ventriloReply, prefix: ventriloPrefix, named: true},
	// dialects_tcp_test.go
	"nadeo":      {reply: nadeoReply, prefix: nadeoPrefix, named: true, greeting: nadeoGreeting},
	"starmade":   {reply: starmadeReply, prefix: starmadePrefix, named: true},
	"soldat":     {reply: soldatReply, prefix: soldatPrefix, greeting: []byte(soldatGreeting)}, // the record has no server name
	"teamspeak2": {reply: ts2Reply, prefix: fixed("OK\r\nserver_name="), named: true, greeting: []byte(ts2Greeting)},
	"openttd":    {reply: openttdReply, prefix: openttdPrefix, named: true},
	"palworld":   {reply: palworldReply, prefix: httpPrefix, named: true},
	"terraria":   {reply: terrariaReply, prefix: httpPrefix, named: true},
}

func fixed(s string) func([]byte) []byte { return func([]byte) []byte { return []byte(s) } }

// --- A2S (spec a2s.md §4, §8) ---

// a2sInfo is an S2A_INFO_SRC reply without extra data.
func a2sInfo() []byte {
	return []byte("\xFF\xFF\xFF\xFF\x49\x11" + serverName + "\x00de_dust2\x00cstrike\x00Counter-Strike\x00" +
		"\x0A\x00\x02\x10\x00dl\x00\x01" + // appid 10, players, max, bots, type, env, visibility, vac
		"1.0.0.0\x00\x00") // version, EDF: nothing follows
}

const a2sCompressed = 0x80000000

// sourceFragment builds a Source-layout split fragment: FE FF FF FF, id, total,
// number, split size, payload.
func sourceFragment(id uint32, total, num byte, payload []byte) []byte {
	b := make([]byte, 12, 12+len(payload))
	binary.LittleEndian.PutUint32(b, 0xFFFFFFFE)
	binary.LittleEndian.PutUint32(b[4:], id)
	b[8], b[9] = total, num
	binary.LittleEndian.PutUint16(b[10:], 1248)
	return append(b, payload...)
}

// splitSource cuts msg into n Source fragments of message id.
func splitSource(id uint32, msg []byte, n int) [][]byte {
	var out [][]byte
	size := (len(msg) + n - 1) / n
	for i := range n {
		lo, hi := min(i*size, len(msg)), min((i+1)*size, len(msg))
		out = append(out, sourceFragment(id, byte(n), byte(i), msg[lo:hi]))
	}
	return out
}

// compressedFragment0 is fragment 0 of a one-fragment compressed message that
// declares size uncompressed bytes and carries stream.
func compressedFragment0(id uint32, size uint32, stream []byte) []byte {
	p := make([]byte, 8, 8+len(stream))
	binary.LittleEndian.PutUint32(p, size)
	binary.LittleEndian.PutUint32(p[4:], 0) // CRC32: never reached
	return sourceFragment(id|a2sCompressed, 1, 0, append(p, stream...))
}

// a2sChallenge is an S2C_CHALLENGE with a fresh number.
func a2sChallenge(n uint32) []byte {
	return binary.LittleEndian.AppendUint32([]byte("\xFF\xFF\xFF\xFF\x41"), n)
}

// --- Quake 3 (spec quake3.md): the reply echoes the getstatus challenge ---

func quake3Reply(req []byte) []byte {
	ch := ""
	if rest, ok := bytes.CutPrefix(req, []byte("\xFF\xFF\xFF\xFFgetstatus ")); ok {
		ch = strings.TrimSpace(string(rest))
	}
	return []byte("\xFF\xFF\xFF\xFFstatusResponse\n\\sv_hostname\\" + serverName +
		"\\mapname\\q3dm17\\sv_maxclients\\16\\challenge\\" + ch + "\n3 50 \"Bob\"\n")
}

// --- Doom 3 (spec doom3.md): the reply echoes the request's last 4 bytes ---

func doom3Echo(req []byte) []byte {
	if len(req) < 4 {
		return make([]byte, 4)
	}
	return req[len(req)-4:]
}

func doom3Prefix(req []byte) []byte {
	return append([]byte("\xFF\xFFinfoResponse\x00"), doom3Echo(req)...)
}

func doom3Reply(req []byte) []byte {
	b := doom3Prefix(req)
	return append(b, "\x29\x00\x01\x00"+ // protocol 1.41
		"si_name\x00"+serverName+"\x00si_map\x00game/mp/d3dm1\x00si_maxPlayers\x008\x00gamename\x00baseDOOM-1\x00"+
		"\x00\x00"+ // end of pairs, no deleted keys
		"\x00\x32\x00\x00\x50\x00\x00B\x00"+ // player 0, ping 50, rate 20480, "B"
		"\x20\xFF\xFF\xFF\xFF"...) // end of players, OS mask
}

// --- GameSpy v1 (spec gamespy1.md) ---

const gs1Single = `\hostname\` + serverName + `\mapname\DM-Deck16\numplayers\1\maxplayers\16\gamename\ut\queryid\9.1\final\`

// gs1Parts is one reply in three packets, the last carrying \final\.
var gs1Parts = [][]byte{
	[]byte(`\hostname\` + serverName + `\gamename\ut\queryid\77.1`),
	[]byte(`\mapname\DM-Deck16\numplayers\1\queryid\77.2`),
	[]byte(`\maxplayers\16\player_0\Bob\frags_0\3\queryid\77.3\final\`),
}

// --- GameSpy v2 (spec gamespy2.md): the reply echoes bytes 3-6 of the request ---

func gamespy2Prefix(req []byte) []byte {
	id := make([]byte, 4)
	if len(req) >= 7 {
		copy(id, req[3:7])
	}
	return append([]byte{0}, id...)
}

func gamespy2Reply(req []byte) []byte {
	b := gamespy2Prefix(req)
	b = append(b, "hostname\x00"+serverName+"\x00mapname\x00bloodgulch\x00numplayers\x001\x00maxplayers\x0016\x00\x00"...)
	return b
}

// --- ASE (spec ase.md): length-prefixed strings whose length byte counts itself ---

func lp(s string) []byte { return append([]byte{byte(len(s) + 1)}, s...) }

// aseReply is an EYE1 reply with the given number of padding rules (to make it
// long enough to split).
func aseReply(rules int) []byte {
	b := []byte("EYE1")
	for _, s := range []string{"mta", "22003", serverName, "DM", "map1", "1.6", "0", "1", "32"} {
		b = append(b, lp(s)...)
	}
	for i := range rules {
		b = append(b, lp(fmt.Sprintf("rule_%03d", i))...)
		b = append(b, lp("value value value value")...)
	}
	b = append(b, 1)    // end of rules
	b = append(b, 0x01) // player flags: name only
	return append(b, lp("Bob")...)
}

const aseFragmentSize = 1364

// aseFragments splits an EYE1 reply the way BF1942-era servers do: fragments of
// exactly 1364 bytes but the last, numbered in the magic's 4th byte (fragment 1
// keeps "EYE1", later ones carry "EYEn" before their payload), each ending with a
// 4-byte reply id.
func aseFragments(reply []byte, id string) [][]byte {
	var out [][]byte
	rest := reply
	for n := 1; len(rest) > 0; n++ {
		var f []byte
		room := aseFragmentSize - 4
		if n > 1 {
			f = []byte(fmt.Sprintf("EYE%d", n))
			room -= 4
		}
		take := min(room, len(rest))
		if take == room && take == len(rest) {
			take-- // a last fragment of exactly 1364 bytes would read as "more follow"
		}
		f = append(f, rest[:take]...)
		rest = rest[take:]
		out = append(out, append(f, id...))
	}
	return out
}

// --- Savage (spec savage.md): header, reply command, protocol, 4 echo bytes ---

var savageHeader = []byte{0x9E, 0x4C, 0x23, 0x00, 0x00}

func savagePrefix(req []byte) []byte {
	cmd, echo := byte(0xCF), make([]byte, 4)
	if len(req) >= 10 {
		if req[5] == 0xC8 {
			cmd = 0xC9
		}
		copy(echo, req[6:10])
	}
	b := append(bytes.Clone(savageHeader), cmd, 0x0C)
	return append(b, echo...)
}

func savageReply(req []byte) []byte {
	b := savagePrefix(req)
	b = append(b, "\xFFname\xFE"+serverName+"\xFFworld\xFEeden2\xFFcnum\xFE1\xFFcmax\xFE16\x00"...)
	b = append(b, "\xFFgametype\xFERTSS\xFFpass\xFE0\xFFplayers\xFETeam 1 (human):\x0ABob\x0A\x00"...)
	return b
}

// --- Satisfactory (spec satisfactory.md): the reply echoes the 8-byte cookie ---

func satisfactoryPrefix(req []byte) []byte {
	cookie := make([]byte, 8)
	if len(req) >= 12 {
		copy(cookie, req[4:12])
	}
	return append([]byte{0xD5, 0xF6, 0x01, 0x01}, cookie...)
}

// satisfactoryBody appends state, changelist, flags, no sub-states, a name whose
// length field says nameLen, the name bytes and the terminator.
func satisfactoryBody(b []byte, nameLen uint16, name string) []byte {
	b = append(b, 3)                                // playing
	b = binary.LittleEndian.AppendUint32(b, 365306) // changelist
	b = binary.LittleEndian.AppendUint64(b, 0)      // flags
	b = append(b, 0)                                // sub-states
	b = binary.LittleEndian.AppendUint16(b, nameLen)
	b = append(b, name...)
	return append(b, 0x01)
}

func satisfactoryReply(req []byte) []byte {
	return satisfactoryBody(satisfactoryPrefix(req), uint16(len(serverName)), serverName)
}

// --- Sky Co-op (spec skycoop.md) ---

func utf16LE(s string) []byte {
	var b []byte
	for _, u := range utf16.Encode([]rune(s)) {
		b = binary.LittleEndian.AppendUint16(b, u)
	}
	return b
}

func skycoopReply([]byte) []byte {
	b := []byte{0x93, 0, 0, 0}
	name := utf16LE(serverName)
	b = binary.LittleEndian.AppendUint32(b, uint32(len(name)))
	b = append(b, name...)
	b = binary.LittleEndian.AppendUint32(b, 6)
	b = append(b, "0.13.2"...)
	b = binary.LittleEndian.AppendUint32(b, 1)
	b = binary.LittleEndian.AppendUint32(b, 4)
	cfg := utf16LE("{'players':['Bob'],'experience':'Voyageur','pvp':'False'}")
	b = binary.LittleEndian.AppendUint32(b, uint32(len(cfg)))
	return append(b, cfg...)
}

// --- Minecraft SLP (spec minecraft.md): VarInt-framed packets ---

func varint(v uint32) []byte {
	var b []byte
	for v >= 0x80 {
		b = append(b, byte(v)|0x80)
		v >>= 7
	}
	return append(b, byte(v))
}

// minecraftReply is a Status Response frame (id 0, the JSON as a VarInt-prefixed
// string). The fake server closes after it, so the ping phase fails: a phase error,
// the probe still succeeds.
func minecraftReply([]byte) []byte {
	js := `{"version":{"name":"1.21","protocol":767},"players":{"max":20,"online":1},"description":"` + serverName + `"}`
	body := append([]byte{0x00}, varint(uint32(len(js)))...)
	body = append(body, js...)
	return append(varint(uint32(len(body))), body...)
}

// --- Minecraft Bedrock (RakNet Unconnected Pong): the pong echoes the ping's time ---

// raknetMagic is RakNet's OFFLINE_MESSAGE_DATA_ID.
const raknetMagic = "\x00\xFF\xFF\x00\xFE\xFE\xFE\xFE\xFD\xFD\xFD\xFD\x12\x34\x56\x78"

// bedrockPrefix is a pong header: id 1C, the ping's time (bytes 1-8 of the
// request), a server GUID and the magic; the string length and string follow.
func bedrockPrefix(req []byte) []byte {
	b := []byte{0x1C}
	if len(req) >= 9 {
		b = append(b, req[1:9]...)
	} else {
		b = append(b, make([]byte, 8)...)
	}
	b = append(b, "\xA5\xB1\x0C\x2F\x44\xE6\x13\x8D"...)
	return append(b, raknetMagic...)
}

func bedrockReply(req []byte) []byte {
	id := "MCPE;" + serverName + ";766;1.21.50;1;10;11939138312187839373;Bedrock level;Survival;1;19132;19133;"
	b := binary.BigEndian.AppendUint16(bedrockPrefix(req), uint16(len(id)))
	return append(b, id...)
}

// --- Unreal Engine 2: version int32 LE, the request's type byte, the fields ---

// ue2String is an Unreal string of Latin-1 text: a length byte counting the NUL.
func ue2String(s string) []byte { return append(append([]byte{byte(len(s) + 1)}, s...), 0) }

func int32LE(b []byte, v int32) []byte { return binary.LittleEndian.AppendUint32(b, uint32(v)) }

// unreal2Prefix is a UT2004 (version 0x80) reply header of the request's type.
func unreal2Prefix(req []byte) []byte {
	kind := byte(0)
	if len(req) >= 5 {
		kind = req[4]
	}
	return []byte{0x80, 0, 0, 0, kind}
}

// unreal2Reply answers server info (type 0), rules (1) and players (2) the way
// UT2004 does.
func unreal2Reply(req []byte) []byte {
	b := unreal2Prefix(req)
	switch b[4] {
	case 0:
		b = int32LE(b, 42) // server id
		b = append(b, 0)   // IP: empty
		b = int32LE(b, 7777)
		b = int32LE(b, 7778)
		for _, s := range []string{serverName, "DM-Rankin", "xDeathMatch"} {
			b = append(b, ue2String(s)...)
		}
		b = int32LE(b, 1)  // players
		b = int32LE(b, 16) // max players
		b = int32LE(b, 0)  // ping
		b = int32LE(b, 0)  // flags
		return append(b, ue2String("1")...)
	case 1:
		return append(append(b, ue2String("ServerMode")...), ue2String("dedicated")...)
	default:
		b = int32LE(b, 1) // player number
		b = append(b, ue2String("Bob")...)
		b = int32LE(b, 48) // ping
		b = int32LE(b, 3)  // score
		return int32LE(b, 0)
	}
}

// --- Frostbite RCON: the serverInfo response packet (sequence 1, response bit) ---

// frostbitePacket is a response packet of sequence 1 holding words.
func frostbitePacket(words ...string) []byte {
	body := []byte{}
	for _, w := range words {
		body = binary.LittleEndian.AppendUint32(body, uint32(len(w)))
		body = append(append(body, w...), 0)
	}
	b := binary.LittleEndian.AppendUint32(nil, 0x40000001)
	b = binary.LittleEndian.AppendUint32(b, uint32(12+len(body)))
	b = binary.LittleEndian.AppendUint32(b, uint32(len(words)))
	return append(b, body...)
}

func frostbiteReply([]byte) []byte {
	return frostbitePacket("OK", serverName, "1", "16", "ConquestLarge0", "MP_Subway")
}

// frostbitePrefix is the header of a 256-byte response packet of 6 words: the
// random bytes behind it are its words (or end it early: truncated).
func frostbitePrefix([]byte) []byte {
	return []byte{0x01, 0, 0, 0x40, 0, 1, 0, 0, 6, 0, 0, 0}
}

// --- TeamSpeak 3 ServerQuery: greeting, then "use port=N" and "serverinfo" ---

const (
	ts3Greeting = "TS3\n\rWelcome to the TeamSpeak 3 ServerQuery interface.\n\r"
	ts3OK       = "error id=0 msg=ok\n\r"
)

// ts3Reply answers `use` and, ahead of the client asking, `serverinfo`: the fake
// servers answer one read, so the whole rest of the exchange goes at once.
func ts3Reply([]byte) []byte {
	return []byte(ts3OK + "virtualserver_name=" + serverName +
		" virtualserver_maxclients=32 virtualserver_clientsonline=2 virtualserver_queryclientsonline=1\n\r" + ts3OK)
}
