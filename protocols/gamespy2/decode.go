package gamespy2

import (
	"bytes"
	"cmp"
	"fmt"
	"strconv"
	"strings"

	"github.com/gameserver-exporter/gameserver_exporter/protocols"
	"github.com/gameserver-exporter/gameserver_exporter/protocols/internal/gamespy"
	"github.com/gameserver-exporter/gameserver_exporter/protocols/wire"
)

const (
	headerLen  = 5 // reply type 0x00 and the 4-byte id echo
	maxColumns = 32
	maxRows    = 256
	// countLimit: a table's first byte above it is the first letter of a header,
	// not a row count (spec §3 quirk 1, gamedig's heuristic).
	countLimit = 64
)

// table is a player or team table: column headers as sent ("player_", "team_t")
// and rows of raw cells.
type table struct {
	cols []string
	rows [][][]byte
}

// reply is one decoded datagram: the K/V section and the tables it holds.
type reply struct {
	kv             []gamespy.Pair
	players, teams *table
	// cut is set when the datagram ends inside a string: what precedes it is kept
	// (spec §3 quirk 5). It wraps ErrTruncated.
	cut error
}

// recode reads the reply's strings with text, a module's `encoding:` (nil: as
// sent): the decoders then take their valid UTF-8 as it is.
func (r *reply) recode(text func([]byte) string) {
	if text == nil {
		return
	}
	gamespy.Recode(text, r.kv)
	for _, t := range []*table{r.players, r.teams} {
		if t == nil {
			continue
		}
		for _, row := range t.rows {
			for i, cell := range row {
				row[i] = []byte(text(cell))
			}
		}
	}
}

// decodeReply decodes one reply datagram by its structure (spec §2), never by the
// flags it answered: some servers send sections they were not asked for.
func decodeReply(b []byte) (*reply, error) {
	if len(b) < headerLen {
		return nil, fmt.Errorf("%w: reply of %d bytes, header needs %d", wire.ErrTruncated, len(b), headerLen)
	}
	if b[0] != 0 {
		return nil, fmt.Errorf("%w: reply type 0x%02x at offset 0, want 0x00", wire.ErrMalformed, b[0])
	}
	r := wire.NewReader(b)
	r.Skip(headerLen, "header")
	rep := &reply{}
	for {
		key := r.CString("key")
		if r.Err() != nil {
			rep.cut = r.Err()
			return rep, nil
		}
		if len(key) == 0 {
			break // end of the K/V section
		}
		value := r.CString("value")
		if r.Err() != nil {
			rep.cut = r.Err()
			return rep, nil
		}
		rep.kv = append(rep.kv, gamespy.Pair{Key: string(key), Value: value})
	}
	for range 2 {
		t, err := readTable(&r)
		if err != nil {
			return nil, err
		}
		if t == nil {
			break
		}
		if t.teams() {
			if rep.teams == nil {
				rep.teams = t
			}
		} else if rep.players == nil {
			rep.players = t
		}
		if r.Err() != nil {
			rep.cut = r.Err()
			break
		}
	}
	return rep, nil
}

// teams reports a team table: its columns end in "_t".
func (t *table) teams() bool {
	if len(t.cols) == 0 {
		return false
	}
	for _, c := range t.cols {
		if !strings.HasSuffix(c, "_t") {
			return false
		}
	}
	return true
}

// readTable reads one table, or returns nil at the end of the datagram. A row cut by
// the end of the datagram is dropped and leaves r's error set.
func readTable(r *wire.Reader) (*table, error) {
	c, ok := r.Peek()
	if !ok {
		return nil, nil
	}
	count, counted := 0, c <= countLimit
	if counted {
		count = int(r.Uint8("row count"))
	}
	t := &table{}
	for {
		h := r.CString("column header")
		if r.Err() != nil {
			return t, nil
		}
		if len(h) == 0 {
			break
		}
		if len(t.cols) == maxColumns {
			return nil, fmt.Errorf("%w: more than %d columns at offset %d", wire.ErrTooLarge, maxColumns, r.Offset())
		}
		t.cols = append(t.cols, string(h))
	}
	if len(t.cols) == 0 {
		return t, nil // no columns, so no rows to read
	}
	for i := 0; !counted || i < count; i++ {
		if !counted {
			// Without a count an empty first cell ends the table (quirk 2).
			if c, ok := r.Peek(); !ok || c == 0 {
				break
			}
			if len(t.rows) == maxRows {
				return nil, fmt.Errorf("%w: more than %d rows at offset %d", wire.ErrTooLarge, maxRows, r.Offset())
			}
		}
		row := make([][]byte, len(t.cols))
		for j := range row {
			row[j] = r.CString("table cell")
		}
		if r.Err() != nil {
			return t, nil // keep complete rows, drop the cut one (§4)
		}
		t.rows = append(t.rows, row)
	}
	// The table terminator, when present (it may be missing at the end).
	if c, ok := r.Peek(); ok && c == 0 {
		r.Skip(1, "table terminator")
	}
	return t, nil
}

// decode decodes the replies of one query (the info reply, then the player/team
// reply, or one reply holding everything) into a Result with players and rules. A
// reply cut short is decoded as far as it goes and the error wraps ErrTruncated.
func decode(replies ...[]byte) (*protocols.Result, error) {
	var kv []gamespy.Pair
	var players, teams *table
	var cut error
	for _, b := range replies {
		rep, err := decodeReply(b)
		if err != nil {
			return nil, err
		}
		kv = append(kv, rep.kv...)
		players, teams = cmp.Or(players, rep.players), cmp.Or(teams, rep.teams)
		cut = cmp.Or(cut, rep.cut)
	}
	res := decodeInfo(kv, true)
	setPlayers(res, players, teams)
	return res, cut
}

// setPlayers fills the player list; the row count stands in for a missing numplayers
// (rows can lag behind numplayers, which wins when sent: spec §3 quirk 3).
func setPlayers(res *protocols.Result, players, teams *table) {
	res.PlayerList = decodePlayers(players, teams, res)
	if players == nil || res.Players.Known {
		return
	}
	for _, kv := range res.Info {
		if strings.EqualFold(kv.Key, "numplayers") {
			return // sent but unreadable: unknown, not guessed
		}
	}
	res.Players = protocols.Known(int64(len(players.rows)))
}

// decodeInfo maps the K/V section (spec §2.1) and keeps it whole in Info, and in
// Rules when rules is set: the section holds GameSpy v1's info and rules together.
func decodeInfo(kv []gamespy.Pair, rules bool) *protocols.Result {
	res := &protocols.Result{}
	res.Name = gamespy.First(kv, text, "hostname")
	res.Map = gamespy.First(kv, text, "mapname", "map") // BF2MC sends map
	res.Version = gamespy.First(kv, text, "gamever")
	res.Game = gamespy.First(kv, text, "gamename", "game_id", "gametype")
	gamespy.SetCounts(res, kv)
	res.Info = gamespy.AppendInfo(nil, kv, nil)
	if rules {
		res.Rules = res.Info
	}
	return res
}

// decodePlayers maps the player table's columns (names without their trailing "_")
// and resolves team indices through the team table.
func decodePlayers(players, teams *table, info *protocols.Result) []protocols.Player {
	if players == nil {
		return nil
	}
	col := func(t *table, suffix string, names ...string) int {
		for _, n := range names {
			for i, c := range t.cols {
				if strings.EqualFold(strings.TrimSuffix(c, suffix), n) {
					return i
				}
			}
		}
		return -1
	}
	name, ping, team := col(players, "_", "player"), col(players, "_", "ping"), col(players, "_", "team")
	score := col(players, "_", "score", "frags", "kills")
	var teamNames []string
	if teams != nil {
		if tn := col(teams, "_t", "team"); tn >= 0 {
			for _, row := range teams.rows {
				teamNames = append(teamNames, text(row[tn]))
			}
		}
	}
	// Team indices are 0-based (Halo) except in Battlefield Vietnam (spec §2.1).
	base := 0
	if strings.EqualFold(info.Game, "bfvietnam") {
		base = 1
	}
	out := make([]protocols.Player, 0, len(players.rows))
	for _, row := range players.rows {
		var p protocols.Player
		if name >= 0 {
			p.Name = text(row[name])
		}
		if score >= 0 {
			p.Score = gamespy.ParseCount(row[score])
		}
		if ping >= 0 {
			p.Ping = gamespy.ParseCount(row[ping])
		}
		if team >= 0 {
			p.Team = strings.TrimSpace(wire.UTF8(row[team]))
			if i, err := strconv.Atoi(p.Team); err == nil && i-base >= 0 && i-base < len(teamNames) {
				p.Team = teamNames[i-base]
			}
		}
		out = append(out, p)
	}
	return out
}

// text converts a display string: America's Army colour escapes (0x1B and three
// bytes, spec §3 quirk 4) removed, then UTF-8 or else Windows-1252 (wire.UTF8).
func text(b []byte) string {
	if bytes.IndexByte(b, 0x1b) < 0 {
		return wire.UTF8(b)
	}
	out := make([]byte, 0, len(b))
	for i := 0; i < len(b); i++ {
		if b[i] == 0x1b {
			i += 3
			continue
		}
		out = append(out, b[i])
	}
	return wire.UTF8(out)
}
