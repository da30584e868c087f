package frostbite

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"slices"
	"strings"

	"github.com/gameserver-exporter/gameserver_exporter/protocols"
	"github.com/gameserver-exporter/gameserver_exporter/protocols/wire"
)

const (
	headerLen = 12
	// maxPacket is the protocol's own limit on a packet's total size.
	maxPacket = 16384
	// maxWords bounds a packet's words: serverInfo has about 30, listPlayers on a
	// full server about 650 (64 players of 10 fields).
	maxWords = 2048
	// maxFields bounds a player info block's fields (BF4 sends 10).
	maxFields = 32
	// maxTeams bounds the team score count (the games have at most 4 teams).
	maxTeams = 16
	// maxDigits keeps a count within int64 without overflow checks.
	maxDigits = 18

	bitResponse = 1 << 30
	seqMask     = 1<<30 - 1
)

// packet is one decoded packet.
type packet struct {
	seq      uint32 // bits 29..0
	response bool
	words    [][]byte // sub-slices of the packet's bytes
}

// header reads a packet header and returns its sequence word and checked total size.
func header(h []byte) (seqWord uint32, size int, err error) {
	if len(h) < headerLen {
		return 0, 0, fmt.Errorf("%w: packet header of %d bytes, want %d", wire.ErrTruncated, len(h), headerLen)
	}
	seqWord = binary.LittleEndian.Uint32(h)
	sz := binary.LittleEndian.Uint32(h[4:])
	switch {
	case sz > maxPacket:
		return 0, 0, fmt.Errorf("%w: packet size %d, the protocol's limit is %d", wire.ErrTooLarge, sz, maxPacket)
	case sz < headerLen:
		return 0, 0, fmt.Errorf("%w: packet size %d is smaller than its header", wire.ErrMalformed, sz)
	}
	return seqWord, int(sz), nil
}

// decodePacket decodes exactly one packet: b must hold the size its header says.
func decodePacket(b []byte) (packet, error) {
	seqWord, size, err := header(b)
	if err != nil {
		return packet{}, err
	}
	switch {
	case len(b) < size:
		return packet{}, fmt.Errorf("%w: packet of %d bytes says it has %d", wire.ErrTruncated, len(b), size)
	case len(b) > size:
		return packet{}, fmt.Errorf("%w: %d bytes after a packet of %d", wire.ErrMalformed, len(b)-size, size)
	}
	n := binary.LittleEndian.Uint32(b[8:])
	// Each word takes at least 5 bytes (length and NUL): a count the size cannot
	// hold is a lie, whatever the cap.
	if n > maxWords || int(n) > (size-headerLen)/5 {
		return packet{}, fmt.Errorf("%w: %d words in a packet of %d bytes (at most %d)", wire.ErrMalformed, n, size, maxWords)
	}
	p := packet{seq: seqWord & seqMask, response: seqWord&bitResponse != 0, words: make([][]byte, 0, n)}
	r := wire.NewReader(b[headerLen:])
	for i := range int(n) {
		l := r.Uint32LE("word length")
		if int64(l) > int64(r.Len()) {
			return packet{}, fmt.Errorf("%w: word %d of %d bytes overruns the packet (%d bytes left)", wire.ErrMalformed, i, l, r.Len())
		}
		w := r.Bytes(int(l), "word")
		if nul := r.Uint8("word terminator"); r.Err() == nil && nul != 0 {
			return packet{}, fmt.Errorf("%w: word %d not NUL-terminated", wire.ErrMalformed, i)
		}
		if r.Err() != nil {
			return packet{}, r.Err()
		}
		p.words = append(p.words, w)
	}
	if r.Len() != 0 {
		return packet{}, fmt.Errorf("%w: %d bytes after the last word", wire.ErrMalformed, r.Len())
	}
	return p, nil
}

// encodePacket builds a packet: the client's request here, fake servers in tests.
func encodePacket(seqWord uint32, words ...string) []byte {
	size := headerLen
	for _, w := range words {
		size += 4 + len(w) + 1
	}
	b := make([]byte, headerLen, size)
	binary.LittleEndian.PutUint32(b, seqWord)
	binary.LittleEndian.PutUint32(b[4:], uint32(size))
	binary.LittleEndian.PutUint32(b[8:], uint32(len(words)))
	for _, w := range words {
		b = binary.LittleEndian.AppendUint32(b, uint32(len(w)))
		b = append(b, w...)
		b = append(b, 0)
	}
	return b
}

// Words after the team scores, in the order the servers send them.
var (
	commonTail = []string{"onlineState", "ranked", "punkBuster", "hasGamePassword", "serverUpTime", "roundTime"}
	bc2Tail    = []string{"gameMod", "mapPack", "gameIpAndPort", "punkBusterVersion", "joinQueueEnabled", "region"}
	fb2Tail    = []string{"gameIpAndPort", "punkBusterVersion", "joinQueueEnabled", "region", "closestPingSite", "country",
		"matchMakingEnabled", "blazePlayerCount", "blazeGameState"}
)

// answer checks the words of cmd's answer: the status word "OK" (else the error
// word the server sent, LogInRequired or UnknownCommand, quoted) and at least n
// words in all, want saying which.
func answer(words [][]byte, cmd string, n int, want string) error {
	switch {
	case len(words) == 0:
		return fmt.Errorf("%w: a %s answer without words", wire.ErrMalformed, cmd)
	case !bytes.Equal(words[0], []byte("OK")):
		return fmt.Errorf("%w: %s: %q", wire.ErrServer, cmd, clip(words[0]))
	case len(words) < n:
		return fmt.Errorf("%w: %s answer of %d words, want %s", wire.ErrMalformed, cmd, len(words), want)
	}
	return nil
}

// decodeServerInfo maps the words of serverInfo's answer onto a Result.
func decodeServerInfo(words [][]byte) (*protocols.Result, error) {
	if err := answer(words, "serverInfo", 6, "name, players, max players, game mode and map"); err != nil {
		return nil, err
	}
	players, ok := count(words[2])
	if !ok {
		return nil, fmt.Errorf("%w: player count %q", wire.ErrMalformed, clip(words[2]))
	}
	maxPlayers, ok := count(words[3])
	if !ok {
		return nil, fmt.Errorf("%w: max player count %q", wire.ErrMalformed, clip(words[3]))
	}
	res := &protocols.Result{
		Name:       wire.UTF8(words[1]),
		Players:    protocols.Known(players),
		MaxPlayers: protocols.Known(maxPlayers),
		Map:        wire.UTF8(words[5]),
	}
	info := make([]protocols.KV, 0, 32)
	info = append(info, protocols.KV{Key: "gameMode", Value: wire.UTF8(words[4])})
	res.Info = tail(res, words[6:], info)
	return res, nil
}

// decodeVersion reads the answer to `version`: "OK", the game ("BC2", "BF3",
// "BF4", ...) and its build number.
func decodeVersion(words [][]byte) (game, build string, err error) {
	if err := answer(words, "version", 3, "the game and its build"); err != nil {
		return "", "", err
	}
	return wire.UTF8(clip(words[1])), wire.UTF8(clip(words[2])), nil
}

// decodePlayers reads the answer to `listPlayers all`, a player info block: "OK",
// the number of fields, their names, the number of players, then each player's
// values in field order (BF3: name, guid, teamId, squadId, kills, deaths, score,
// rank; BF4 adds ping and type; BC2 leads with clanTag and has ping, no rank).
// Without a login the GUIDs are empty. A spectator sends -1 for what it lacks,
// which leaves that value unknown; team 0 is no team.
func decodePlayers(words [][]byte) ([]protocols.Player, error) {
	if err := answer(words, "listPlayers", 3, "the fields and the player count"); err != nil {
		return nil, err
	}
	w := words[1:]
	nf, ok := count(w[0])
	if !ok || nf == 0 || nf > maxFields || int(nf)+2 > len(w) { // the count, the fields, the player count
		return nil, fmt.Errorf("%w: listPlayers field count unreadable or past the words", wire.ErrMalformed)
	}
	fields, w := w[1:1+nf], w[1+nf:]
	np, ok := count(w[0])
	if !ok || np > int64(len(w)) || np*nf != int64(len(w)-1) { // np first: no overflow
		return nil, fmt.Errorf("%w: listPlayers says %q players of %d fields, and sends %d values", wire.ErrMalformed, clip(w[0]), nf, len(w)-1)
	}
	name := slices.IndexFunc(fields, func(f []byte) bool { return string(f) == "name" })
	if name < 0 {
		return nil, fmt.Errorf("%w: listPlayers fields without name", wire.ErrMalformed)
	}
	players := make([]protocols.Player, 0, np)
	for v := range slices.Chunk(w[1:], int(nf)) {
		p := protocols.Player{Name: wire.UTF8(v[name])}
		for i, f := range fields {
			switch string(f) {
			case "score":
				p.Score = protocols.ParseCount(string(v[i]))
			case "ping":
				p.Ping = protocols.ParseCount(string(v[i]))
			case "teamId":
				if t := string(v[i]); t != "0" {
					p.Team = wire.UTF8(clip(v[i]))
				}
			}
		}
		players = append(players, p)
	}
	return players, nil
}

// tail decodes the words after the map as far as they follow a known layout and
// notes where it stopped in the "layout" entry.
func tail(res *protocols.Result, w [][]byte, info []protocols.KV) []protocols.KV {
	i := 0
	take := func(key string) bool {
		if i == len(w) {
			return false
		}
		info = append(info, protocols.KV{Key: key, Value: wire.UTF8(w[i])})
		i++
		return true
	}
	stop := func(why string) []protocols.KV {
		if i < len(w) {
			why += fmt.Sprintf("; %d words not decoded", len(w)-i)
		}
		return append(info, protocols.KV{Key: "layout", Value: why})
	}
	if !take("roundsPlayed") || !take("roundsTotal") {
		return stop("ends before the team scores")
	}
	if i == len(w) {
		return stop("ends before the team scores")
	}
	teams, ok := count(w[i])
	if !ok || teams > maxTeams || int(teams) >= len(w)-i {
		return stop(fmt.Sprintf("team score count %q unreadable", clip(w[i])))
	}
	i++
	scores := make([]string, 0, teams)
	for range teams {
		scores = append(scores, wire.UTF8(w[i]))
		i++
	}
	info = append(info, protocols.KV{Key: "teamScores", Value: strings.Join(scores, " ")})
	take("targetScore")
	for _, k := range commonTail {
		if !take(k) {
			return stop("ends after the team scores")
		}
		commonField(res, k, w[i-1])
	}
	if i == len(w) {
		return stop("ends after the round time")
	}
	// Bad Company 2 names its game mod where later games send their address.
	layout, keys := "frostbite2", fb2Tail
	if m := string(w[i]); strings.EqualFold(m, "BC2") || strings.EqualFold(m, "VIETNAM") {
		layout, keys = "bc2", bc2Tail
		res.Game = m
	}
	for _, k := range keys {
		if !take(k) {
			break
		}
	}
	return stop(layout)
}

// commonField reads the words of the common tail that fill the result.
func commonField(res *protocols.Result, key string, v []byte) {
	switch key {
	case "hasGamePassword":
		switch string(v) {
		case "true":
			res.Password = protocols.FlagTrue
		case "false":
			res.Password = protocols.FlagFalse
		}
	case "serverUpTime": // seconds the server has run
		if n, ok := count(v); ok {
			res.Uptime = protocols.SpanSeconds(float64(n))
		}
	case "roundTime": // seconds into the current round (on the current map)
		if n, ok := count(v); ok {
			res.MapTime = protocols.SpanSeconds(float64(n))
		}
	}
}

// count parses a non-negative decimal of at most maxDigits digits.
func count(b []byte) (int64, bool) {
	if len(b) == 0 || len(b) > maxDigits {
		return 0, false
	}
	var v int64
	for _, c := range b {
		if c < '0' || c > '9' {
			return 0, false
		}
		v = v*10 + int64(c-'0')
	}
	return v, true
}

// clip shortens what an error quotes of a peer's word.
func clip(b []byte) []byte {
	const n = 64
	if len(b) > n {
		return b[:n]
	}
	return b
}
