package doom3

import (
	"fmt"

	"github.com/gameserver-exporter/gameserver_exporter/protocols/wire"
)

// layouts lists the record shapes to try and whether the protocol major is one a
// known game uses. For a known major only the game's own shape is tried; otherwise
// each shape in turn, preferring the one the keys suggest.
func layouts(rep *reply) ([]layout, bool) {
	major := rep.Major()
	known := (rep.ETQW && major >= 10) || (!rep.ETQW && major >= 1 && major <= 4 && rep.Variant != variantWolf)
	pref := layoutDoom3
	switch {
	case rep.ETQW, rep.Variant == variantETQW:
		pref = layoutETQW
	case rep.Variant == variantQuake4:
		pref = layoutQuake4
	case rep.Variant == variantWolf:
		pref = layoutWolf
	}
	if known {
		return []layout{pref}, true
	}
	out := []layout{pref}
	for _, l := range []layout{layoutDoom3, layoutQuake4, layoutETQW, layoutWolf} {
		if l != pref {
			out = append(out, l)
		}
	}
	return out, false
}

// plausible reports whether a probed shape ended the way a real reply ends: on
// MAX_ASYNC_CLIENTS exactly (or Wolfenstein's 16), followed by the OS mask
// (+ Quake 4's 5 bytes) or by ET:QW's longer tail. A wrong shape usually stops
// early on a name byte >= 32.
func plausible(rep *reply, l layout, term byte, left int) bool {
	if term != asyncClients && (l != layoutWolf || term != wolfClients) {
		return false
	}
	if rep.ETQW {
		return left >= 4+7+1
	}
	return left >= 4 && left <= 16
}

func decodePlayers(rep *reply, r *wire.Reader, text func([]byte) string) {
	ls, known := layouts(rep)
	var firstErr error
	var first wire.Reader
	for i, l := range ls {
		try := *r // the reader is a cursor value: each shape starts from the same offset
		players, term, err := readPlayers(&try, l, text)
		if err == nil && (known || plausible(rep, l, term, try.Len())) {
			*r = try
			rep.Layout, rep.Players = l, players
			if l == layoutWolf && rep.Variant == variantUnknown {
				rep.Variant = variantWolf // no other game is known to send this record
			}
			return
		}
		if i == 0 {
			first, firstErr = try, err
			rep.Layout, rep.Players = l, players // keep what the preferred shape read
		}
	}
	if firstErr == nil {
		// No shape ended plausibly but the preferred one ended: trust it.
		*r = first
		return
	}
	if rep.PlayersErr == nil {
		rep.PlayersErr = firstErr
	}
}

// readPlayers reads records up to a terminator byte >= 32 (>= 16 for Wolfenstein).
// Ids must be below it and strictly increasing; anything else means the shape is
// wrong or the data is bad.
func readPlayers(r *wire.Reader, l layout, text func([]byte) string) ([]player, byte, error) {
	var out []player
	end := byte(asyncClients)
	if l == layoutWolf {
		end = wolfClients
	}
	for n := 0; ; n++ {
		off := r.Offset()
		id := r.Uint8("player id")
		if err := r.Err(); err != nil {
			return out, 0, fmt.Errorf("%w (no player list terminator)", err)
		}
		if id >= end {
			return out, id, nil
		}
		if n == maxRecords {
			return out, 0, fmt.Errorf("%w: more than %d player records at offset %d", wire.ErrTooLarge, maxRecords, off)
		}
		if len(out) > 0 && id <= out[len(out)-1].ID {
			return out, 0, fmt.Errorf("%w: player id %d at offset %d after id %d", wire.ErrMalformed, id, off, out[len(out)-1].ID)
		}
		p := player{ID: id, Ping: r.Uint16LE("player ping")}
		if l != layoutETQW {
			p.Rate, p.HasRate = r.Uint32LE("player rate"), true
		}
		p.Name = text(r.CString("player name"))
		switch l {
		case layoutQuake4:
			p.Clan = text(r.CString("player clan"))
		case layoutETQW, layoutWolf:
			p.ClanPos = r.Uint8("player clan-tag position")
			p.Clan = text(r.CString("player clan tag"))
			bot := r.Uint8("player bot flag")
			if bot > 1 && r.Err() == nil {
				return out, 0, fmt.Errorf("%w: player %d bot flag %d at offset %d", wire.ErrMalformed, id, bot, r.Offset()-1)
			}
			p.Bot, p.HasBot = bot == 1, true
		}
		if err := r.Err(); err != nil {
			return out, 0, fmt.Errorf("%w (player %d)", err, id)
		}
		out = append(out, p)
	}
}

// decodeTail reads what follows the player list; every part is optional.
func decodeTail(rep *reply, r *wire.Reader, text func([]byte) string) {
	defer func() {
		rep.Trailing = r.Rest()
		if rep.Response == respInfoEx && rep.Tail == nil && rep.PlayersErr == nil {
			rep.PlayersErr = fmt.Errorf("%w: infoExResponse ends before its extended player list", wire.ErrTruncated)
		}
	}()
	if r.Len() < 4 {
		return
	}
	rep.OSMask, rep.HasOSMask = r.Uint32LE("os mask"), true
	if !rep.ETQW {
		return // Quake 4 1.4.2 sends 5 more bytes of unknown meaning: left as Trailing
	}
	if r.Len() < 7 {
		return
	}
	t := &etqwTail{
		Ranked:     r.Uint8("ranked") != 0,
		TimeLeft:   r.Int32LE("time left"),
		GameState:  r.Uint8("game state"),
		ServerType: r.Uint8("server type"),
	}
	if t.ServerType == 0 {
		if r.Len() < 1 {
			return
		}
		t.Interested = r.Uint8("interested clients")
	} else {
		if r.Len() < 8 {
			return
		}
		t.Connected = r.Int32LE("connected clients")
		t.MaxClients = r.Int32LE("max clients")
	}
	rep.Tail = t
	if rep.Response == respInfoEx {
		if err := readExtended(rep, r, text); err != nil {
			rep.PlayersErr = err
		}
	}
}

// readExtended reads infoExResponse's per-player statistics and attaches them to the
// records with the same id.
func readExtended(rep *reply, r *wire.Reader, text func([]byte) string) error {
	byID := make(map[uint8]int, len(rep.Players))
	for i, p := range rep.Players {
		byID[p.ID] = i
	}
	last := -1
	for n := 0; ; n++ {
		off := r.Offset()
		id := r.Uint8("extended player id")
		if err := r.Err(); err != nil {
			return fmt.Errorf("%w (no extended player list terminator)", err)
		}
		if id >= asyncClients {
			return nil
		}
		if n == maxRecords || int(id) <= last {
			return fmt.Errorf("%w: extended player id %d at offset %d after id %d", wire.ErrMalformed, id, off, last)
		}
		last = int(id)
		xp := r.Float32LE("extended player XP")
		team := r.CString("extended player team")
		kills := r.Int32LE("extended player kills")
		deaths := r.Int32LE("extended player deaths")
		if err := r.Err(); err != nil {
			return fmt.Errorf("%w (extended player %d)", err, id)
		}
		if i, ok := byID[id]; ok {
			p := &rep.Players[i]
			p.Ext, p.XP, p.Team, p.Kills, p.Deaths = true, xp, text(team), kills, deaths
		}
	}
}
