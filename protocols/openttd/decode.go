package openttd

import (
	"encoding/binary"
	"encoding/hex"
	"fmt"
	"strconv"
	"time"

	"github.com/gameserver-exporter/gameserver_exporter/protocols"
	"github.com/gameserver-exporter/gameserver_exporter/protocols/wire"
)

// Packet types of the TCP game protocol (PacketGameType) that can answer
// PACKET_CLIENT_GAME_INFO: the info itself, or a refusal sent on accept.
const (
	packetServerFull     = 0
	packetServerBanned   = 1
	packetServerError    = 3
	packetServerGameInfo = 6
	packetClientGameInfo = 7
)

// maxPacket caps the u16 packet size: OpenTTD's TCP_MTU since 12.0 (it was
// 1460 before). Anything larger is not an OpenTTD packet.
const maxPacket = 32767

// headerSize is the u16 size (counting itself) and the u8 packet type.
const headerSize = 3

// maxVersion is the newest NetworkGameInfo layout known here. A newer version
// prepends fields we cannot skip, so it is refused rather than misread.
const maxVersion = 7

// request is PACKET_CLIENT_GAME_INFO: size 3, type 7, no payload.
func request() []byte { return []byte{headerSize, 0, packetClientGameInfo} }

// grf identifies one NewGRF the server uses.
type grf struct {
	ID   uint32 // GRF id as OpenTTD prints it (the four bytes read big-endian)
	MD5  [16]byte
	Name string // only with NewGRF serialisation 1 (names sent)
}

// gameInfo is a decoded NetworkGameInfo. Fields of versions the server did not
// send stay zero; Version says which ones are present.
type gameInfo struct {
	Version             uint8  // game-info version, 1..7
	TicksPlaying        uint64 // v7
	NewGRFSerialisation uint8  // v6: 0 id+md5, 1 id+md5+name, 2 lookup id
	GameScriptVersion   int32  // v5: -1 without a game script
	GameScriptName      string // v5
	NewGRFs             []grf
	GameDate, StartDate uint32 // days since 1 January of year 0
	CompaniesMax        uint8  // v2
	CompaniesOn         uint8  // v2
	SpectatorsMax       uint8  // v2
	ServerName          string
	Revision            string
	Language            uint8 // v1-5 only
	Password            bool
	ClientsMax          uint8
	ClientsOn           uint8
	SpectatorsOn        uint8
	MapName             string // v1-5 only
	MapWidth, MapHeight uint16
	Landscape           uint8
	Dedicated           bool
	Trailing            int // bytes after the last known field (ignored)
}

// header checks the 3-byte packet header and returns the total packet size.
func header(h []byte) (int, error) {
	if len(h) < headerSize {
		return 0, fmt.Errorf("%w: packet header needs %d bytes, got %d", wire.ErrTruncated, headerSize, len(h))
	}
	size := int(binary.LittleEndian.Uint16(h))
	switch {
	case size < headerSize:
		return 0, fmt.Errorf("%w: packet size %d at offset 0 is below the %d-byte header", wire.ErrMalformed, size, headerSize)
	case size > maxPacket:
		return 0, fmt.Errorf("%w: packet size %d at offset 0, max %d", wire.ErrTooLarge, size, maxPacket)
	}
	return size, nil
}

// decodePacket decodes one whole TCP packet: the size must match len(b), and
// the type must be PACKET_SERVER_GAME_INFO. A FULL, BANNED or ERROR packet is
// an error wrapping ErrServer.
func decodePacket(b []byte) (gameInfo, error) {
	size, err := header(b)
	if err != nil {
		return gameInfo{}, err
	}
	if size != len(b) {
		return gameInfo{}, fmt.Errorf("%w: packet size field says %d bytes, got %d", wire.ErrMalformed, size, len(b))
	}
	switch typ := b[2]; typ {
	case packetServerGameInfo:
		return decodeGameInfo(b[headerSize:])
	case packetServerFull:
		return gameInfo{}, fmt.Errorf("%w: server full", wire.ErrServer)
	case packetServerBanned:
		return gameInfo{}, fmt.Errorf("%w: banned by the server", wire.ErrServer)
	case packetServerError:
		if len(b) > headerSize {
			return gameInfo{}, fmt.Errorf("%w: server error code %d", wire.ErrServer, b[headerSize])
		}
		return gameInfo{}, fmt.Errorf("%w: server error without a code", wire.ErrServer)
	default:
		return gameInfo{}, fmt.Errorf("%w: packet type %d, want %d (SERVER_GAME_INFO)", wire.ErrMalformed, typ, packetServerGameInfo)
	}
}

// decodeGameInfo decodes the payload of PACKET_SERVER_GAME_INFO. The blocks
// come newest version first, each older block following (OpenTTD's fallthrough
// switch), so a version-v packet holds every block from v down to 1.
func decodeGameInfo(b []byte) (gameInfo, error) {
	r := wire.NewReader(b)
	var g gameInfo
	g.Version = r.Uint8("game info version")
	if err := r.Err(); err != nil {
		return gameInfo{}, err
	}
	if g.Version < 1 || g.Version > maxVersion {
		return gameInfo{}, fmt.Errorf("%w: game info version %d at offset 0, know 1..%d", wire.ErrMalformed, g.Version, maxVersion)
	}
	v := g.Version
	if v >= 7 {
		g.TicksPlaying = r.Uint64LE("ticks playing")
	}
	if v >= 6 {
		g.NewGRFSerialisation = r.Uint8("newgrf serialisation")
		if g.NewGRFSerialisation > 2 && r.Err() == nil {
			return gameInfo{}, fmt.Errorf("%w: newgrf serialisation %d at offset %d, know 0..2", wire.ErrMalformed, g.NewGRFSerialisation, r.Offset()-1)
		}
	}
	if v >= 5 {
		g.GameScriptVersion = r.Int32LE("game script version")
		g.GameScriptName = str(&r, "game script name")
	}
	if v >= 4 {
		n := int(r.Uint8("newgrf count")) // a u8: at most 255, the packet bounds it further
		for i := 0; i < n && r.Err() == nil; i++ {
			g.NewGRFs = append(g.NewGRFs, newGRF(&r, g.NewGRFSerialisation, i))
		}
	}
	if v >= 3 {
		g.GameDate = r.Uint32LE("game date")
		g.StartDate = r.Uint32LE("start date")
	}
	if v >= 2 {
		g.CompaniesMax = r.Uint8("companies max")
		g.CompaniesOn = r.Uint8("companies on")
		g.SpectatorsMax = r.Uint8("spectators max")
	}
	g.ServerName = str(&r, "server name")
	g.Revision = str(&r, "server revision")
	if v < 6 {
		g.Language = r.Uint8("server language")
	}
	g.Password = r.Uint8("password flag") != 0
	g.ClientsMax = r.Uint8("clients max")
	g.ClientsOn = r.Uint8("clients on")
	g.SpectatorsOn = r.Uint8("spectators on")
	if v < 3 {
		// 16-bit dates counted from 1920, the original base year
		g.GameDate = uint32(r.Uint16LE("game date")) + daysTill1920
		g.StartDate = uint32(r.Uint16LE("start date")) + daysTill1920
	}
	if v < 6 {
		g.MapName = str(&r, "map name")
	}
	g.MapWidth = r.Uint16LE("map width")
	g.MapHeight = r.Uint16LE("map height")
	g.Landscape = r.Uint8("landscape")
	g.Dedicated = r.Uint8("dedicated flag") != 0
	if err := r.Err(); err != nil {
		return gameInfo{}, err
	}
	g.Trailing = r.Len()
	return g, nil
}

func newGRF(r *wire.Reader, serialisation uint8, i int) grf {
	var f grf
	if serialisation == 2 {
		// an index into a table sent by the game coordinator: no id or md5 here
		f.ID = r.Uint32LE(fmt.Sprintf("newgrf %d lookup id", i))
		return f
	}
	f.ID = r.Uint32BE(fmt.Sprintf("newgrf %d id", i))
	copy(f.MD5[:], r.Bytes(16, fmt.Sprintf("newgrf %d md5", i)))
	if serialisation == 1 {
		f.Name = str(r, fmt.Sprintf("newgrf %d name", i))
	}
	return f
}

// str reads a NUL-terminated string. OpenTTD sends UTF-8; anything else is
// read as Windows-1252 (wire.UTF8) so the result is always valid UTF-8.
func str(r *wire.Reader, what string) string { return wire.UTF8(r.CString(what)) }

// daysTill1920 is DAYS_TILL_ORIGINAL_BASE_YEAR: 1 January 1920 counted in days
// from 1 January of year 0 (proleptic Gregorian, year 0 a leap year).
const daysTill1920 = 365*1920 + 1920/4 - 1920/100 + 1920/400

// maxDate is 31 December 5000000 (OpenTTD's MAX_YEAR), the receiver's clamp:
// the days before that year (exact for a multiple of 400) plus 365, as it is
// a leap year.
const maxDate = 365*5000000 + 5000000/4 - 5000000/100 + 5000000/400 + 365

// date formats an OpenTTD date (days since 1 January of year 0) as YYYY-MM-DD,
// clamped like OpenTTD's own receiver.
func date(days uint32) string {
	return time.Date(0, 1, 1, 0, 0, 0, 0, time.UTC).AddDate(0, 0, int(min(days, maxDate))).Format("2006-01-02")
}

var landscapes = [...]string{"temperate", "sub-arctic", "sub-tropical", "toyland"}

// landscapeName is the climate's name, or its number when unknown.
func landscapeName(l uint8) string {
	if int(l) < len(landscapes) {
		return landscapes[l]
	}
	return strconv.Itoa(int(l))
}

// Result turns the game info into the exporter's Result. Clients are the
// players: OpenTTD's max_clients is the server's player limit. With rules the
// NewGRFs are listed too.
func (g gameInfo) Result(rules bool) *protocols.Result {
	res := &protocols.Result{
		Name:       g.ServerName,
		Version:    g.Revision,
		Map:        g.MapName,
		Players:    protocols.Known(int64(g.ClientsOn)),
		MaxPlayers: protocols.Known(int64(g.ClientsMax)),
		Password:   protocols.FlagOf(g.Password),
	}
	kv := func(k, v string) { res.Info = append(res.Info, protocols.KV{Key: k, Value: v}) }
	itoa := func(n uint64) string { return strconv.FormatUint(n, 10) }
	kv("game_info_version", itoa(uint64(g.Version)))
	kv("clients_on", itoa(uint64(g.ClientsOn)))
	kv("clients_max", itoa(uint64(g.ClientsMax)))
	kv("spectators_on", itoa(uint64(g.SpectatorsOn)))
	if g.Version >= 2 {
		kv("companies_on", itoa(uint64(g.CompaniesOn)))
		kv("companies_max", itoa(uint64(g.CompaniesMax)))
		kv("spectators_max", itoa(uint64(g.SpectatorsMax)))
	}
	kv("map_width", itoa(uint64(g.MapWidth)))
	kv("map_height", itoa(uint64(g.MapHeight)))
	kv("landscape", landscapeName(g.Landscape))
	kv("dedicated", strconv.FormatBool(g.Dedicated))
	kv("password", strconv.FormatBool(g.Password))
	kv("game_date", date(g.GameDate))
	kv("start_date", date(g.StartDate))
	if g.Version < 6 {
		kv("language", itoa(uint64(g.Language)))
	}
	if g.Version >= 4 {
		kv("newgrfs", strconv.Itoa(len(g.NewGRFs)))
	}
	if g.Version >= 5 && g.GameScriptVersion != -1 {
		kv("gamescript_name", g.GameScriptName)
		kv("gamescript_version", strconv.FormatInt(int64(g.GameScriptVersion), 10))
	}
	if g.Version >= 7 {
		kv("ticks_playing", itoa(g.TicksPlaying))
	}
	if rules {
		res.Rules = append([]protocols.KV(nil), res.Info...)
		for _, f := range g.NewGRFs {
			v := f.Name
			if f.MD5 != [16]byte{} {
				v = hex.EncodeToString(f.MD5[:]) + " " + v
			}
			res.Rules = append(res.Rules, protocols.KV{Key: fmt.Sprintf("newgrf_%08X", f.ID), Value: v})
		}
	}
	return res
}
