package steam

import (
	"fmt"

	"github.com/gameserver-exporter/gameserver_exporter/protocols"
	"github.com/gameserver-exporter/gameserver_exporter/protocols/wire"
)

// Extra Data Flag bits of an S2A_INFO_SRC reply (spec §4).
const (
	EDFPort      = 0x80
	EDFSteamID   = 0x10
	EDFSpectator = 0x40
	EDFKeywords  = 0x20
	EDFGameID    = 0x01
	edfUndefined = 0x0E
)

// Caps on what a peer may make a decoder hold.
const (
	MaxRules = 4096 // rules kept from one reply; real servers send a few hundred
)

// Info is a decoded A2S_INFO reply: S2A_INFO_SRC (0x49) or the obsolete GoldSrc
// S2A_INFO_DETAILED (0x6D). Strings hold the bytes as sent (not necessarily UTF-8);
// Result converts them.
type Info struct {
	Type     byte // TypeInfo or TypeInfoDetailed
	Protocol byte
	Address  string // 0x6D only: "IP:port" as the server sees itself

	Name, Map, Folder, Game string

	AppID      uint16 // 0x49 only; 0 when the real AppID needs more than 16 bits (see FullAppID)
	Players    byte   // bots included
	MaxPlayers byte
	Bots       byte
	HasBots    bool // false for a 0x6D reply that ends before its bots byte

	ServerType  byte // 'd', 'l', 'p' (GoldSrc may send upper case; RDKF sends 0)
	Environment byte // 'l', 'w', 'm', 'o'
	Visibility  byte // 0 public, 1 password
	VAC         byte
	HasVAC      bool

	// The Ship (AppID 2400) only.
	HasShip                           bool
	ShipMode, ShipWitnesses, ShipTime byte

	Version string // 0x49 only

	// Extra data (0x49): EDF as sent, Extra the bits whose fields were decoded.
	EDF, Extra    byte
	GamePort      uint16
	SteamID       uint64
	SpectatorPort uint16
	SpectatorName string
	Keywords      string
	GameID        uint64

	// 0x6D only.
	Mod *ModInfo // nil when the server is plain Half-Life
	// HLTV proxies append spectators and slots as longs when a byte cannot hold them.
	HasHLTVCounts              bool
	Spectators, SpectatorSlots int32

	// UnknownEDF is set when the EDF has an undefined bit (0x02, 0x04, 0x08). The
	// known fields are read by their bits all the same; whatever the undefined bits
	// may add is left in Trailing.
	UnknownEDF bool
	// Truncated is set when an optional field (extra data) was cut short; the
	// fields before it are kept.
	Truncated bool
	// Trailing counts bytes left after a complete parse.
	Trailing int
}

// ModInfo is the mod block of a 0x6D reply.
type ModInfo struct {
	Link, DownloadLink, Reserved string
	Version, Size                int32
	Type, DLL                    byte
}

// FullAppID is the game's Steam AppID: the low 24 bits of the GameID when the reply
// has one (Rust and Quake Live send 0 in the 16-bit field), else the 16-bit field.
func (in *Info) FullAppID() uint32 {
	if in.Extra&EDFGameID != 0 {
		if id := uint32(in.GameID & 0xFFFFFF); id != 0 {
			return id
		}
	}
	return uint32(in.AppID)
}

// Cursor is a wire.Reader that also holds the message as one string, so that string
// fields are cut from it instead of costing an allocation each.
type Cursor struct {
	wire.Reader
	s string
}

// NewCursor reads b.
func NewCursor(b []byte) Cursor { return Cursor{Reader: wire.NewReader(b), s: string(b)} }

// Str reads a NUL-terminated string; "" once the cursor has failed.
func (c *Cursor) Str(what string) string {
	p := c.CString(what)
	if c.Err() != nil {
		return ""
	}
	end := c.Offset() - 1
	return c.s[end-len(p) : end]
}

// Str8 reads a string with a one-byte length prefix; "" once the cursor has failed.
func (c *Cursor) Str8(what string) string {
	n := int(c.Uint8(what + " length"))
	start := c.Offset()
	c.Skip(n, what)
	if c.Err() != nil {
		return ""
	}
	return c.s[start : start+n]
}

// Header checks the 5 bytes every complete message starts with (FF FF FF FF and
// the type) and returns its type; what names the message in errors.
func Header(b []byte, what string) (byte, error) {
	if len(b) < 5 {
		return 0, fmt.Errorf("%w: %s of %d bytes, shorter than the 5-byte header", wire.ErrTruncated, what, len(b))
	}
	if b[0] != 0xFF || b[1] != 0xFF || b[2] != 0xFF || b[3] != 0xFF {
		return 0, fmt.Errorf("%w: %s header % x, want ff ff ff ff", wire.ErrMalformed, what, b[:4])
	}
	return b[4], nil
}

// DecodeInfo decodes an A2S_INFO reply, either S2A_INFO_SRC (0x49) or the obsolete
// GoldSrc S2A_INFO_DETAILED (0x6D).
func DecodeInfo(b []byte) (*Info, error) {
	in := new(Info)
	if err := in.Decode(b); err != nil {
		return nil, err
	}
	return in, nil
}

// Decode decodes an A2S_INFO reply into in, which must be zero.
func (in *Info) Decode(b []byte) error {
	t, err := Header(b, "info reply")
	if err != nil {
		return err
	}
	c := NewCursor(b)
	c.Skip(5, "header")
	in.Type = t
	switch t {
	case TypeInfo:
		return decodeSource(&c, in)
	case TypeInfoDetailed:
		return decodeDetailed(&c, in)
	}
	return fmt.Errorf("%w: info reply type 0x%02x, want 0x49 or 0x6d", wire.ErrMalformed, t)
}

// decodeSource reads S2A_INFO_SRC (spec §4). Everything through version is required;
// the extra data is optional and kept as far as it goes.
func decodeSource(c *Cursor, in *Info) error {
	in.Protocol = c.Uint8("protocol")
	in.Name = c.Str("name")
	in.Map = c.Str("map")
	in.Folder = c.Str("folder")
	in.Game = c.Str("game")
	in.AppID = c.Uint16LE("app_id")
	in.Players = c.Uint8("players")
	in.MaxPlayers = c.Uint8("max_players")
	in.Bots = c.Uint8("bots")
	in.HasBots = true
	in.ServerType = c.Uint8("server_type")
	in.Environment = c.Uint8("environment")
	in.Visibility = c.Uint8("visibility")
	in.VAC = c.Uint8("vac")
	in.HasVAC = true
	if in.AppID == AppIDTheShip {
		in.HasShip = true
		in.ShipMode = c.Uint8("the_ship mode")
		in.ShipWitnesses = c.Uint8("the_ship witnesses")
		in.ShipTime = c.Uint8("the_ship duration")
	}
	in.Version = c.Str("version")
	if err := c.Err(); err != nil {
		return err
	}
	if c.Len() == 0 {
		return nil // no EDF byte: old servers, The Ship
	}
	in.EDF = c.Uint8("edf")
	// No server is known to set the undefined bits, and none of them has a field
	// documented: read the known fields by their bits all the same (gamedig does),
	// so that a stray bit does not cost the keywords and the counts in them.
	in.UnknownEDF = in.EDF&edfUndefined != 0
	decodeExtra(c, in)
	return nil
}

// decodeExtra reads the extra data fields the EDF announces, in wire order (which
// is not bit order), keeping the fields before a cut one.
func decodeExtra(c *Cursor, in *Info) {
	if in.EDF&EDFPort != 0 {
		if in.GamePort = c.Uint16LE("edf game_port"); c.Err() == nil {
			in.Extra |= EDFPort
		}
	}
	if in.EDF&EDFSteamID != 0 {
		if in.SteamID = c.Uint64LE("edf steam_id"); c.Err() == nil {
			in.Extra |= EDFSteamID
		}
	}
	if in.EDF&EDFSpectator != 0 {
		port := c.Uint16LE("edf spectator_port")
		if name := c.Str("edf spectator_name"); c.Err() == nil {
			in.SpectatorPort, in.SpectatorName = port, name
			in.Extra |= EDFSpectator
		}
	}
	if in.EDF&EDFKeywords != 0 {
		if in.Keywords = c.Str("edf keywords"); c.Err() == nil {
			in.Extra |= EDFKeywords
		}
	}
	if in.EDF&EDFGameID != 0 {
		if in.GameID = c.Uint64LE("edf game_id"); c.Err() == nil {
			in.Extra |= EDFGameID
		}
	}
	// A cut extra field does not fail the scrape (spec §11): keep what came before.
	in.Truncated = c.Err() != nil
	in.Trailing = c.Len()
}

// decodeDetailed reads the GoldSrc S2A_INFO_DETAILED reply (spec §5).
func decodeDetailed(c *Cursor, in *Info) error {
	in.Address = c.Str("address")
	in.Name = c.Str("name")
	in.Map = c.Str("map")
	in.Folder = c.Str("folder")
	in.Game = c.Str("game")
	in.Players = c.Uint8("players")
	in.MaxPlayers = c.Uint8("max_players")
	in.Protocol = c.Uint8("protocol")
	in.ServerType = c.Uint8("server_type")
	in.Environment = c.Uint8("environment")
	in.Visibility = c.Uint8("visibility")
	if c.Uint8("mod") != 0 {
		m := &ModInfo{}
		m.Link = c.Str("mod link")
		m.DownloadLink = c.Str("mod download_link")
		m.Reserved = c.Str("mod reserved") // documented as one NUL, written as a string
		m.Version = c.Int32LE("mod version")
		m.Size = c.Int32LE("mod size")
		m.Type = c.Uint8("mod type")
		m.DLL = c.Uint8("mod dll")
		in.Mod = m
	}
	if err := c.Err(); err != nil {
		return err
	}
	// vac and bots are optional: the HLTV proxy ends after vac, and appends two longs
	// (spectators, slots) there when a byte cannot hold them.
	if c.Len() > 0 {
		in.VAC, in.HasVAC = c.Uint8("vac"), true
	}
	if c.Len() >= 8 && lower(in.ServerType) == 'p' {
		in.Spectators = c.Int32LE("hltv spectators")
		in.SpectatorSlots = c.Int32LE("hltv slots")
		in.HasHLTVCounts = true
	} else if c.Len() > 0 {
		in.Bots, in.HasBots = c.Uint8("bots"), true
	}
	in.Trailing = c.Len()
	return nil
}

func lower(b byte) byte {
	if 'A' <= b && b <= 'Z' {
		return b + 'a' - 'A'
	}
	return b
}

// Player is one record of an S2A_PLAYER reply. Name holds the bytes as sent.
type Player struct {
	Index    byte // 0 on Source, 1-based on GoldSrc: not an identifier
	Name     string
	Score    int32
	Duration float32 // seconds; -1 for The Ship bots, may be NaN from a broken server
	// The Ship only.
	Deaths, Money int32
}

// Players is a decoded S2A_PLAYER reply.
type Players struct {
	Count   byte // entries the server claims
	List    []Player
	TheShip bool // deaths and money were read
	// Truncated is set when the reply ended before Count complete records.
	Truncated bool
	Trailing  int
}

// DecodePlayers decodes an S2A_PLAYER reply. theShip asks for the deaths/money pairs
// The Ship (AppID 2400) appends; no other game sends them. Records are read until
// Count or the end of the reply, whichever comes first (counts lie: more than 255
// players wrap), and a record cut short is dropped and flags Truncated.
func DecodePlayers(b []byte, theShip bool) (*Players, error) {
	t, err := Header(b, "player reply")
	if err != nil {
		return nil, err
	}
	if t != TypePlayers {
		return nil, fmt.Errorf("%w: player reply type 0x%02x, want 0x44", wire.ErrMalformed, t)
	}
	c := NewCursor(b)
	c.Skip(5, "header")
	p := &Players{Count: c.Uint8("player count")}
	if err := c.Err(); err != nil {
		return nil, err
	}
	// A record takes at least 10 bytes: cap the allocation by what can be there.
	p.List = make([]Player, 0, min(int(p.Count), c.Len()/10))
	for range int(p.Count) {
		if c.Len() == 0 {
			break
		}
		var pl Player
		pl.Index = c.Uint8("player index")
		pl.Name = c.Str("player name")
		pl.Score = c.Int32LE("player score")
		pl.Duration = c.Float32LE("player duration")
		if c.Err() != nil {
			break
		}
		p.List = append(p.List, pl)
	}
	if c.Err() != nil || len(p.List) < int(p.Count) {
		p.Truncated = true
		return p, nil
	}
	if theShip && c.Len() >= 8*len(p.List) && len(p.List) > 0 {
		p.TheShip = true
		for i := range p.List {
			p.List[i].Deaths = c.Int32LE("the_ship deaths")
			p.List[i].Money = c.Int32LE("the_ship money")
		}
	}
	p.Trailing = c.Len()
	return p, nil
}

// Rules is a decoded S2A_RULES reply. Keys and values hold the bytes as sent.
type Rules struct {
	Count uint16 // pairs the server claims
	List  []protocols.KV
	// Truncated is set when the reply ended before Count complete pairs (a dangling
	// name is dropped) or held more than MaxRules pairs.
	Truncated bool
	Trailing  int
}

// DecodeRules decodes an S2A_RULES reply.
func DecodeRules(b []byte) (*Rules, error) {
	t, err := Header(b, "rules reply")
	if err != nil {
		return nil, err
	}
	if t != TypeRules {
		return nil, fmt.Errorf("%w: rules reply type 0x%02x, want 0x45", wire.ErrMalformed, t)
	}
	c := NewCursor(b)
	c.Skip(5, "header")
	r := &Rules{Count: c.Uint16LE("rule count")}
	if err := c.Err(); err != nil {
		return nil, err
	}
	n := min(int(r.Count), MaxRules)
	r.List = make([]protocols.KV, 0, min(n, c.Len()/2))
	for range n {
		if c.Len() == 0 {
			break
		}
		k := c.Str("rule name")
		v := c.Str("rule value")
		if c.Err() != nil {
			break
		}
		r.List = append(r.List, protocols.KV{Key: k, Value: v})
	}
	if c.Err() != nil || len(r.List) < int(r.Count) {
		r.Truncated = true
		return r, nil
	}
	r.Trailing = c.Len()
	return r, nil
}

// DecodeChallenge returns the 4 challenge bytes of an S2C_CHALLENGE reply.
func DecodeChallenge(b []byte) ([]byte, error) {
	if len(b) < 9 {
		return nil, fmt.Errorf("%w: challenge reply of %d bytes, want 9", wire.ErrTruncated, len(b))
	}
	return b[5:9], nil
}
