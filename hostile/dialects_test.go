package hostile

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/gameserver-exporter/gameserver_exporter/protocols/prototest"
)

// serverName is the name the replies built here carry; those read from a
// protocol's own vectors carry theirs (dialect.name).
const serverName = "Hostile"

// dialect is what the fake servers know of one protocol: a valid reply to a
// request (a protocol's own test vector, or built from its spec, echoing what
// must be echoed), and a header that passes the querier's accept check, behind
// which random bytes reach the decoder.
type dialect struct {
	reply  func(req []byte) []byte
	prefix func(req []byte) []byte
	// name is the server name a reply carries (checked on success); "" for a
	// protocol whose reply has none (Hytale, Mumble's ping, Soldat's record).
	name string
	// greeting is what a TCP server sends on accept, before it reads the request
	// (TeamSpeak 3's ServerQuery speaks first); nil when the client speaks first.
	greeting []byte
	// module, when set, is the YAML of the module probing the fake (named after
	// the protocol, overriding the built-in one). With a %d (the fake's port) it
	// names the port the querier connects to, and the target names otherPort.
	module string
	// echo locates, in a request, the challenge, id or cookie its reply echoes
	// (wrong_echo flips them); nil for a protocol that echoes nothing.
	echo func(req []byte) (lo, hi int)
}

// dialects is keyed by protocol (module) name. A registered protocol missing here
// still gets the cases that need no reply (silence, closed port, random...). A
// nil reply or prefix is no answer: the server ignores that request (Teeworlds'
// 0.6 gie3 beside the 0.7 token request). Paths are under protocols/.
var dialects = map[string]dialect{
	"a2s":          {reply: func([]byte) []byte { return a2sInfo() }, prefix: fixed("\xFF\xFF\xFF\xFF\x49"), name: a2sName},
	"goldsrc":      {reply: func([]byte) []byte { return a2sInfo() }, prefix: fixed("\xFF\xFF\xFF\xFF\x6D"), name: a2sName},
	"quake3":       {reply: quake3Reply, prefix: fixed("\xFF\xFF\xFF\xFFstatusResponse\n"), name: serverName, echo: after("\xFF\xFF\xFF\xFFgetstatus ", 1)},
	"doom3":        {reply: doom3Reply, prefix: first(19, doom3Reply), name: "Red Server", echo: tail4},
	"gamespy1":     {reply: func([]byte) []byte { return []byte(gs1Single) }, prefix: fixed(`\`), name: serverName},
	"gamespy2":     {reply: gamespy2Reply, prefix: first(5, gamespy2Reply), name: "All", echo: span(3, 7)},
	"ase":          {reply: func([]byte) []byte { return aseReply(0) }, prefix: fixed("EYE1"), name: serverName},
	"savage":       {reply: savageReply, prefix: savagePrefix, name: "Newerth Arena", echo: span(6, 10)},
	"satisfactory": {reply: satisfactoryReply, prefix: satisfactoryPrefix, name: serverName, echo: span(4, 12)},
	"skycoop":      {reply: vector("skycoop/testdata/spec_worked_srv.hex"), prefix: fixed("\x93\x00\x00\x00"), name: "Srv"},
	"hytale":       {reply: fixed("OK 3 10\n"), prefix: fixed("OK ")},
	"minecraft":    {reply: minecraftReply, prefix: fixed("\xE8\x07\x00"), name: serverName}, // a 1000-byte status frame
	"bedrock":      {reply: bedrockReply, prefix: first(33, bedrockReply), name: "Dedicated Server", echo: span(1, 9)},
	"unreal2":      {reply: unreal2Reply, prefix: unreal2Prefix, name: "Café DM"},
	"frostbite":    {reply: vector("frostbite/testdata/ok_bf4.hex"), prefix: fixed("\x01\x00\x00\x40\x00\x01\x00\x00\x06\x00\x00\x00"), name: "BF4 Test Server - Conquest 24/7"},
	"teamspeak3": {reply: ts3Reply, prefix: fixed(ts3OK), name: serverName, greeting: []byte(ts3Greeting),
		module: "{protocol: teamspeak3, teamspeak3: {query_port: %d}}"},
	"darkplaces": {reply: darkplacesReply, prefix: fixed(oob + "statusResponse\n"), name: serverName, echo: after(oob+"getstatus ", 0)},
	"quake2":     {reply: vector("quake2/testdata/status_q2ded.bin"), prefix: fixed(oob + "print\n"), name: "Fake Q2 Arena"},
	"quakeworld": {reply: vector("quakeworld/testdata/status_mvdsv.bin"), prefix: fixed(oob + "n"), name: "Fake Duel Arena"},
	"gamespy3":   {reply: gamespy3Reply, prefix: gamespy3Prefix, name: serverName, echo: span(3, 7)},
	"gamespy4":   {reply: qr2("gamespy4/testdata/full_vanilla.bin"), prefix: gamespy3Prefix, name: "Café Craft", echo: span(3, 7)},
	"cube2":      {reply: cube2Reply, prefix: bytes.Clone, name: serverName, echo: cube2Ping},
	"armagetron": {reply: armagetronReply, prefix: armagetronPrefix, name: "Red Green Arena"},
	"mumble":     {reply: mumbleReply, prefix: first(12, mumbleReply), echo: span(4, 12)}, // the ping reply has no name
	"teeworlds":  {reply: teeworldsReply, prefix: teeworldsPrefix, name: serverName, echo: tw07Token},
	"fivem":      {reply: fivemReply, prefix: fixed(oob + "infoResponse\n"), name: serverName, echo: after(oob+"getinfo ", 0)},
	"ffow":       {reply: vector("ffow/testdata/info.hex"), prefix: fixed("\xFF\xFF\xFF\xFF\x49"), name: "FFOW Test Server"},
	"samp":       {reply: sampReply, prefix: sampPrefix, name: "Fake Roleplay", echo: span(4, 10)}, // the address and port
	"ventrilo":   {reply: ventriloReply, prefix: ventriloPrefix, name: serverName},
	"cs2d":       {reply: vector("cs2d/testdata/full.vec"), prefix: fixed("\x01\x00\xFB\x01"), name: "Dust Town"},
	"tribes1":    {reply: tribesReply, prefix: tribesPrefix, name: "Tribes Arena é"},
	"savage2":    {reply: savage2Reply, prefix: first(12, savage2Reply), name: "Newerth Front"},
	"mafia2mp":   {reply: vector("mafia2mp/testdata/m2mp.vec"), prefix: fixed("M2MP"), name: "Empire Bay Roleplay"},
	"rfactor":    {reply: rfactorReply, prefix: first(8, rfactorReply), name: "Sunday Cup"},
	"hexen2":     {reply: hexen2Reply, prefix: hexen2Prefix, name: "Castle of the Dragon"},
	"nadeo":      {reply: nadeoReply, prefix: nadeoPrefix, name: "Red Racing $ Club", greeting: nadeoGreeting},
	"starmade":   {reply: vector("starmade/testdata/status_default.hex"), prefix: starmadePrefix, name: "StarMade Testers"},
	// The record has no server name; the admin connection needs a password, and
	// a module with a credential lists the targets it may probe.
	"soldat": {reply: soldatReply, prefix: soldatPrefix, greeting: []byte(soldatGreeting),
		module: "{protocol: soldat, soldat: {password: hostile}, targets: [127.0.0.1]}"},
	"teamspeak2": {reply: ts2Reply, prefix: fixed("OK\r\nserver_name="), name: serverName, greeting: []byte(ts2Greeting),
		module: "{protocol: teamspeak2, teamspeak2: {query_port: %d}}"},
	"openttd":          {reply: vector("openttd/testdata/v7_ticks_gamescript.hex"), prefix: openttdPrefix, name: "Große Straßen"},
	"palworld":         {reply: palworldReply, prefix: httpPrefix, name: "Palworld Server 日本"},
	"terraria":         {reply: served("terraria", "/v2/server/status", "status_players_rules.json"), prefix: httpPrefix, name: "Terraria Server"},
	"eco":              {reply: served("eco", "/info", "info.json"), prefix: httpPrefix, name: "Green Valley EU"},
	"eldewrito":        {reply: served("eldewrito", "/", "open.json"), prefix: httpPrefix, name: "Blood Gulch 24/7"},
	"buildandshoot":    {reply: served("buildandshoot", "/json", "pyspades.json"), prefix: httpPrefix, name: "Classic TDM"},
	"assettocorsa":     {reply: served("assettocorsa", "/INFO", "info.json", "/JSON|", "entry_list.json"), prefix: httpPrefix, name: "ACRL Nordschleife Trackday"},
	"kspdmp":           {reply: served("kspdmp", "/", "status.json"), prefix: httpPrefix, name: "Kerbin Orbital Club"},
	"farmingsimulator": {reply: served("farmingsimulator", "/feed/dedicated-server-stats.xml", "fs22.xml"), prefix: httpPrefix, name: "Harvest Co-op"},
}

// Replies read from vectors that rows share or that are too long for a row.
var (
	doom3Reply    = echoed("doom3/testdata/doom3_players.hex", 15, tail4)
	gamespy2Reply = echoed("gamespy2/testdata/all_in_one.bin", 1, span(3, 7))
	bedrockReply  = echoed("bedrock/testdata/bds_full.hex", 1, span(1, 9))
	mumbleReply   = echoed("mumble/testdata/reply_1_3_4.hex", 4, span(4, 12))
	savage2Reply  = vector("savage2/testdata/full.vec")
	rfactorReply  = vector("rfactor/testdata/full.vec")
	// Replies by the request's type byte, or path.
	unreal2Reply  = byType(4, "unreal2/testdata/info_ut2004.vec", "unreal2/testdata/rules_ut2004.vec", "unreal2/testdata/players_teams.vec")
	hexen2Reply   = byType(4, "", "", "hexen2/testdata/info.vec", "hexen2/testdata/player0.vec", "hexen2/testdata/rule_end.vec")
	palworldReply = served("palworld", "/v1/api/info", "info.json", "/v1/api/metrics", "metrics.json", "/v1/api/players", "players.json")
)

func fixed(s string) func([]byte) []byte { return func([]byte) []byte { return []byte(s) } }

// readVector reads a protocol's test vector, protocols/<path>: .hex and .vec in
// their annotated formats (prototest.ParseHex, ParseVec), other files as they are.
// The paths are fixed, so a missing or broken file is a bug of this package.
func readVector(path string) []byte {
	b, err := os.ReadFile(filepath.Join("..", "protocols", path))
	if err == nil {
		switch filepath.Ext(path) {
		case ".hex":
			b, err = prototest.ParseHex(string(b))
		case ".vec":
			b, err = prototest.ParseVec(string(b))
		}
	}
	if err != nil {
		panic(err)
	}
	return b
}

// vector answers every request with the vector at path.
func vector(path string) func([]byte) []byte {
	return func([]byte) []byte { return readVector(path) }
}

// echoed answers with the vector at path, the bytes echo locates in the request
// copied over its own from offset at (the vector's own when the request is too
// short to hold them).
func echoed(path string, at int, echo func(req []byte) (lo, hi int)) func([]byte) []byte {
	return func(req []byte) []byte {
		b := readVector(path)
		lo, hi := echo(req)
		if lo < 0 || hi > len(req) || lo > hi {
			lo, hi = 0, 0
		}
		copy(b[at:], req[lo:hi])
		return b
	}
}

// first is the first n bytes of what reply answers: the header of a reply.
func first(n int, reply func([]byte) []byte) func([]byte) []byte {
	return func(req []byte) []byte { return reply(req)[:n] }
}

// byType answers a request whose byte at i is n with the n-th path (no answer
// to a type without one).
func byType(i int, paths ...string) func([]byte) []byte {
	return func(req []byte) []byte {
		if len(req) <= i || int(req[i]) >= len(paths) || paths[req[i]] == "" {
			return nil
		}
		return readVector(paths[req[i]])
	}
}

// span is an echo at fixed offsets of the request.
func span(lo, hi int) func([]byte) (int, int) { return func([]byte) (int, int) { return lo, hi } }

// tail4 is an echo of the request's last four bytes (Doom 3's challenge).
func tail4(req []byte) (int, int) { return len(req) - 4, len(req) }

// after is an echo of what follows cmd in the request, but its last trim bytes.
func after(cmd string, trim int) func([]byte) (int, int) {
	return func(req []byte) (int, int) { return len(cmd), len(req) - trim }
}

// --- A2S (spec a2s.md §4, §8) ---

// a2sInfo is an S2A_INFO_SRC reply without extra data.
func a2sInfo() []byte { return readVector("a2s/testdata/info_no_edf.hex") }

const a2sName = "Test Server"

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

// --- GameSpy v1 (spec gamespy1.md) ---

const gs1Single = `\hostname\` + serverName + `\mapname\DM-Deck16\numplayers\1\maxplayers\16\gamename\ut\queryid\9.1\final\`

// gs1Parts is one reply in three packets, the last carrying \final\.
var gs1Parts = [][]byte{
	[]byte(`\hostname\` + serverName + `\gamename\ut\queryid\77.1`),
	[]byte(`\mapname\DM-Deck16\numplayers\1\queryid\77.2`),
	[]byte(`\maxplayers\16\player_0\Bob\frags_0\3\queryid\77.3\final\`),
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

// savageReply answers the extended info request (CE), which the querier sends
// first, with the package's CF reply.
var savageReply = echoed("savage/testdata/ext_basic.vec", 7, span(6, 10))

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

// unreal2Prefix is a UT2004 (version 0x80) reply header of the request's type.
func unreal2Prefix(req []byte) []byte {
	kind := byte(0)
	if len(req) >= 5 {
		kind = req[4]
	}
	return []byte{0x80, 0, 0, 0, kind}
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
