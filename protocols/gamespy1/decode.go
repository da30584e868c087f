package gamespy1

import (
	"bytes"
	"fmt"
	"sort"
	"strconv"
	"strings"

	"github.com/gameserver-exporter/gameserver_exporter/protocols"
	"github.com/gameserver-exporter/gameserver_exporter/protocols/internal/gamespy"
	"github.com/gameserver-exporter/gameserver_exporter/protocols/wire"
)

const (
	maxPackets    = 32       // fragments of one reply (spec §8)
	maxDatagrams  = 64       // datagrams read for one reply, strays and duplicates included
	maxReply      = 64 << 10 // bytes read for one reply
	maxKeyLen     = 64
	maxPlayers    = 512 // player entries kept
	maxNameJoins  = 4   // backslashes tolerated inside one player name
	maxQueryIDLen = 20
)

// errNotGameSpy marks a datagram that cannot be a GameSpy v1 reply (spec §8: ignore
// it and keep waiting rather than failing the query).
var errNotGameSpy = fmt.Errorf("%w: datagram does not start with a backslash", wire.ErrMalformed)

// packet is one parsed datagram.
type packet struct {
	query   string // Q of \queryid\Q.P; "" when the datagram carries no queryid
	num     int    // P, 1-based
	final   bool
	pairs   []gamespy.Pair // data pairs, queryid and final removed
	garbled bool           // parsing stopped at a token that is not a key
}

// parsePacket splits one datagram into its pairs (spec §3).
func parsePacket(b []byte) (packet, error) {
	var p packet
	if len(b) == 0 || b[0] != '\\' {
		return p, errNotGameSpy
	}
	toks := bytes.Split(b[1:], []byte{'\\'})
	// A trailing backslash ends the datagram; it starts no empty key.
	if n := len(toks); n > 0 && len(toks[n-1]) == 0 {
		toks = toks[:n-1]
	}
	for i := 0; i < len(toks); {
		key := toks[i]
		if !validKey(key) {
			// A name with an unescaped backslash shifted the pairing (spec §4
			// rule 5): keep what was read, drop the rest of the datagram.
			p.garbled = true
			break
		}
		var value []byte
		next := i + 2
		if i+1 < len(toks) {
			value = toks[i+1]
			if isNameKey(key) {
				value, next = joinName(toks, i+1)
			}
		}
		i = next
		switch {
		case strings.EqualFold(string(key), "queryid"):
			q, n, err := parseQueryID(value)
			if err != nil {
				return p, err
			}
			p.query, p.num = q, n
		case strings.EqualFold(string(key), "final"):
			p.final = true
		default:
			p.pairs = append(p.pairs, gamespy.Pair{Key: string(key), Value: value})
		}
	}
	if p.query == "" {
		p.num = 1
	}
	return p, nil
}

// joinName returns the player name at toks[v] and the index of the next key. A name
// containing `\` is split across tokens; qstat's heuristic, made stricter: join the
// tokens that do not look like keys when that realigns the pairing on a token that
// does (or on the end of the datagram).
func joinName(toks [][]byte, v int) ([]byte, int) {
	for j := 1; j <= maxNameJoins && v+j < len(toks); j++ {
		if plausibleKey(toks[v+j]) {
			if j == 1 {
				break
			}
			return bytes.Join(toks[v:v+j], []byte{'\\'}), v + j
		}
		if v+j+1 == len(toks) {
			return bytes.Join(toks[v:], []byte{'\\'}), len(toks)
		}
	}
	return toks[v], v + 1
}

// validKey: keys are identifiers in every known game; anything else means the
// pairing has shifted.
func validKey(k []byte) bool {
	if len(k) == 0 || len(k) > maxKeyLen {
		return false
	}
	for _, c := range k {
		if c <= ' ' || c >= 0x7f {
			return false
		}
	}
	return true
}

// plausibleKey reports whether a token can follow a player name: another indexed
// field (player_3, team_t0) or a control key.
func plausibleKey(t []byte) bool {
	if strings.EqualFold(string(t), "queryid") || strings.EqualFold(string(t), "final") {
		return true
	}
	_, _, ok := splitIndexed(string(t), true)
	return ok
}

func isNameKey(k []byte) bool {
	f, _, ok := splitIndexed(string(k), false)
	return ok && (f == "player" || f == "playername")
}

// splitIndexed splits "<letters>_<digits>" into the lower-cased field and N (spec §4
// rule 1). With teams, "<letters>_t<digits>" (Halo-style team tables) matches too.
func splitIndexed(k string, teams bool) (field string, n int, ok bool) {
	i := strings.LastIndexByte(k, '_')
	if i <= 0 || i == len(k)-1 {
		return "", 0, false
	}
	for _, c := range k[:i] {
		if !('a' <= c && c <= 'z' || 'A' <= c && c <= 'Z') {
			return "", 0, false
		}
	}
	digits := k[i+1:]
	if teams && digits[0] == 't' {
		digits = digits[1:]
	}
	if len(digits) == 0 || len(digits) > 6 {
		return "", 0, false
	}
	for _, c := range digits {
		if c < '0' || c > '9' {
			return "", 0, false
		}
	}
	n, _ = strconv.Atoi(digits)
	return strings.ToLower(k[:i]), n, true
}

// parseQueryID reads "Q.P" (a bare "Q" is packet 1).
func parseQueryID(v []byte) (string, int, error) {
	s := strings.TrimSpace(string(v))
	q, num, found := strings.Cut(s, ".")
	if q == "" || len(q) > maxQueryIDLen {
		return "", 0, fmt.Errorf("%w: queryid %q", wire.ErrMalformed, truncate(s))
	}
	if !found {
		return q, 1, nil
	}
	n, err := strconv.Atoi(num)
	if err != nil || n < 1 {
		return "", 0, fmt.Errorf("%w: queryid packet number %q", wire.ErrMalformed, truncate(num))
	}
	if n > maxPackets {
		return "", 0, fmt.Errorf("%w: queryid packet number %d over %d", wire.ErrTooLarge, n, maxPackets)
	}
	return q, n, nil
}

func truncate(s string) string {
	if len(s) > 32 {
		return s[:32] + "..."
	}
	return s
}

// decode reassembles the datagrams of one \status\ (or \info\, \players\, \rules\)
// reply, in any order, and decodes everything it holds. A reply with packets
// missing is decoded as far as it goes and the error wraps ErrTruncated.
func decode(datagrams [][]byte) (*protocols.Result, error) {
	var a assembler
	for _, d := range datagrams {
		done, _, err := a.add(d)
		if err != nil {
			return nil, err
		}
		if done {
			break
		}
	}
	pairs, err := a.result()
	if pairs == nil {
		return nil, err
	}
	res := decodeInfo(pairs, true)
	res.PlayerList = decodePlayers(pairs, res)
	return res, err
}

// decodeInfo maps the well-known keys (spec §6) and keeps every non-player pair in
// Info, and in Rules when rules is set.
func decodeInfo(pairs []gamespy.Pair, rules bool) *protocols.Result {
	res := &protocols.Result{}
	str := func(key string) string {
		v, _ := gamespy.Lookup(pairs, key)
		return stripColours(wire.UTF8(v))
	}
	res.Name = str("hostname")
	res.Map = str("mapname")
	res.Version = str("gamever")
	if res.Game = str("gamename"); res.Game == "" {
		res.Game = str("gametype")
	}
	gamespy.SetCounts(res, pairs)
	res.Info = gamespy.AppendInfo(nil, pairs, isPlayerKey)
	if rules {
		res.Rules = res.Info
	}
	return res
}

// isPlayerKey is true for per-player and team-table keys, and for keyhash_N, which
// must never be exported.
func isPlayerKey(k string) bool {
	_, _, ok := splitIndexed(k, true)
	return ok
}

type playerEntry struct {
	n      int
	player protocols.Player
	named  bool
	score  int // priority of the field Score came from
	team   []byte
}

// scorePriority ranks the fields Score may come from: frags (UT, MOHAA), score
// (BF1942), kills as a last resort.
var scorePriority = map[string]int{"frags": 3, "score": 2, "kills": 1}

// set stores one indexed player field.
func (e *playerEntry) set(field string, v []byte) {
	pl := &e.player
	switch field {
	case "player", "playername":
		pl.Name = stripColours(wire.UTF8(v))
		e.named = true
	case "frags", "score", "kills":
		if prio := scorePriority[field]; prio > e.score {
			pl.Score = gamespy.ParseCount(v)
			e.score = prio
		}
	case "ping":
		pl.Ping = gamespy.ParseCount(v)
	case "team":
		e.team = v
	}
}

// decodePlayers groups the indexed player fields by N (spec §4). info carries
// numplayers and gamename, which may come from another reply.
func decodePlayers(pairs []gamespy.Pair, info *protocols.Result) []protocols.Player {
	entries, teamNames := groupPlayers(pairs)
	// BF1942 keeps stale entries of players who left (spec §4 rule 4).
	if info.Players.Known && int64(len(entries)) > info.Players.Value && info.Players.Value >= 0 {
		entries = entries[:info.Players.Value]
	}
	bf1942 := strings.EqualFold(info.Game, "bfield1942")
	out := make([]protocols.Player, 0, len(entries))
	for _, e := range entries {
		pl := e.player
		pl.Team = strings.TrimSpace(wire.UTF8(e.team))
		if bf1942 {
			// team_N is 1-based, teamname_N 0-based (spec §4 rule 3).
			if t, err := strconv.Atoi(pl.Team); err == nil {
				if name, ok := teamNames[t-1]; ok {
					pl.Team = name
				}
			}
		}
		out = append(out, pl)
	}
	return out
}

// groupPlayers collects the named player entries in index order, at most
// maxPlayers of them, and the team names by index.
func groupPlayers(pairs []gamespy.Pair) ([]*playerEntry, map[int]string) {
	byN := map[int]*playerEntry{}
	teamNames := map[int]string{}
	for _, p := range pairs {
		field, n, ok := splitIndexed(p.Key, false)
		switch {
		case !ok || field == "keyhash":
			continue
		case field == "teamname":
			teamNames[n] = wire.UTF8(p.Value)
			continue
		}
		e := byN[n]
		if e == nil {
			if len(byN) >= maxPlayers {
				continue
			}
			e = &playerEntry{n: n}
			byN[n] = e
		}
		e.set(field, p.Value)
	}
	entries := make([]*playerEntry, 0, len(byN))
	for _, e := range byN {
		if e.named {
			entries = append(entries, e)
		}
	}
	sort.Slice(entries, func(i, j int) bool { return entries[i].n < entries[j].n })
	return entries, teamNames
}

// stripColours removes MOHAA's Quake-style ^N colour codes (spec §8).
func stripColours(s string) string {
	if !strings.Contains(s, "^") {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] == '^' && i+1 < len(s) && s[i+1] >= '0' && s[i+1] <= '9' {
			i++
			continue
		}
		b.WriteByte(s[i])
	}
	return b.String()
}
