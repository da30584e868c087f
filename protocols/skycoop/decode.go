package skycoop

import (
	"encoding/binary"
	"fmt"
	"strconv"
	"unicode/utf16"
	"unicode/utf8"

	"github.com/gameserver-exporter/gameserver_exporter/protocols"
	"github.com/gameserver-exporter/gameserver_exporter/protocols/wire"
)

const (
	// defaultPacketID is ServerPackets.PINGSERVER from 0.11.0 through 0.13.x.
	defaultPacketID = 147
	// maxString caps every UTF-16 byte count a peer sends (spec §6).
	maxString = 64 << 10
	// maxVersion caps the version's character count: versions look like "0.13.2".
	maxVersion = 256
	// game is what every Sky Co-op server runs.
	game = "The Long Dark"
)

// Format names of the two reply layouts, as shown in Result.Info.
const (
	formatCurrent = "0.11.6+"
	formatLegacy  = "0.11.0-0.11.5"
)

// status is a decoded status reply.
type status struct {
	Format     string
	Name       string // current format only
	Version    string
	Players    int32 // connected clients, RCON sessions included
	MaxPlayers int32

	ConfigRaw string // the config text as sent (current format)
	Config    config
	// ConfigErr is set when the config field is missing, truncated or unparseable:
	// the counts before it are still good (spec §6).
	ConfigErr error
	// Trailing counts bytes after the config (the spec says there are none).
	Trailing int
	// LegacyConfigBytes is the size of the 0.11.0-0.11.5 binary config, not decoded.
	LegacyConfigBytes int
}

// request is the status ping: client id -2 as int32 LE.
func request() []byte { return []byte{0xFE, 0xFF, 0xFF, 0xFF} }

// answers reports whether b is a status reply: at least 4 bytes starting with the
// packet id. Anything else is another packet (or not Sky Co-op at all).
func answers(b []byte, packetID int32) error {
	if len(b) < 4 {
		return fmt.Errorf("%w: %d-byte datagram, no packet id", wire.ErrTruncated, len(b))
	}
	if id := int32(binary.LittleEndian.Uint32(b)); id != packetID {
		return fmt.Errorf("%w: packet id %d at offset 0, want %d (PINGSERVER): not a Sky Co-op >= 0.11.0 status reply", wire.ErrMismatch, id, packetID)
	}
	return nil
}

// decodeReply parses a status reply. It tries the current layout first; when that does
// not consume the datagram exactly, the 0.11.0-0.11.5 layout (whose first string is
// an ASCII version, where the current one has a UTF-16 name) gets a chance before the
// current layout's error is reported.
func decodeReply(b []byte, packetID int32) (*status, error) {
	if err := answers(b, packetID); err != nil {
		return nil, err
	}
	st, exact, err := decodeCurrent(b)
	if err == nil && exact {
		return st, nil
	}
	if old, lerr := decodeLegacy(b); lerr == nil {
		return old, nil
	}
	return st, err
}

func decodeCurrent(b []byte) (st *status, exact bool, err error) {
	r := wire.NewReader(b)
	r.Skip(4, "packet id")
	name, err := readUTF16(&r, "server name")
	if err != nil {
		return nil, false, err
	}
	version, err := readCharCountUTF8(&r, "mod version")
	if err != nil {
		return nil, false, err
	}
	st = &status{Format: formatCurrent, Name: name, Version: version}
	if st.Players, st.MaxPlayers, err = readCounts(&r); err != nil {
		return nil, false, err
	}
	cfg, err := readUTF16(&r, "config")
	if err != nil {
		st.ConfigErr = err
		return st, false, nil
	}
	st.ConfigRaw = cfg
	st.Config, st.ConfigErr = parseConfig(cfg)
	st.Trailing = r.Len()
	return st, st.Trailing == 0, nil
}

func decodeLegacy(b []byte) (*status, error) {
	r := wire.NewReader(b)
	r.Skip(4, "packet id")
	version, err := readCharCountUTF8(&r, "mod version")
	if err != nil {
		return nil, err
	}
	if !looksLikeVersion(version) {
		return nil, fmt.Errorf("%w: legacy version %q at offset 8", wire.ErrMalformed, version)
	}
	st := &status{Format: formatLegacy, Version: version}
	if st.Players, st.MaxPlayers, err = readCounts(&r); err != nil {
		return nil, err
	}
	st.LegacyConfigBytes = len(r.Rest())
	return st, nil
}

// looksLikeVersion accepts "0.11.3"-like strings: a digit first, a dot somewhere,
// only version characters. A UTF-16LE Latin name never passes (its NUL bytes).
func looksLikeVersion(s string) bool {
	if s == "" || s[0] < '0' || s[0] > '9' {
		return false
	}
	dot := false
	for _, c := range []byte(s) {
		switch {
		case c == '.':
			dot = true
		case c >= '0' && c <= '9', c >= 'a' && c <= 'z', c >= 'A' && c <= 'Z', c == '-', c == '_', c == '+':
		default:
			return false
		}
	}
	return dot
}

func readCounts(r *wire.Reader) (players, max int32, err error) {
	off := r.Offset()
	players, max = r.Int32LE("players"), r.Int32LE("max players")
	if err := r.Err(); err != nil {
		return 0, 0, err
	}
	if players < 0 || max < 0 {
		return 0, 0, fmt.Errorf("%w: negative player counts %d/%d at offset %d", wire.ErrMalformed, players, max, off)
	}
	return players, max, nil
}

// readUTF16 reads an int32 byte count and that many bytes of UTF-16LE
// (WriteUnicodeString). Unpaired surrogates become U+FFFD.
func readUTF16(r *wire.Reader, what string) (string, error) {
	off := r.Offset()
	n := r.Int32LE(what + " length")
	if err := r.Err(); err != nil {
		return "", err
	}
	switch {
	case n < 0:
		return "", fmt.Errorf("%w: %s length %d at offset %d is negative", wire.ErrMalformed, what, n, off)
	case n > maxString:
		return "", fmt.Errorf("%w: %s length %d at offset %d, cap %d", wire.ErrTooLarge, what, n, off, maxString)
	case n%2 != 0:
		return "", fmt.Errorf("%w: %s length %d at offset %d is odd: not UTF-16 bytes", wire.ErrMalformed, what, n, off)
	case int(n) > r.Len():
		return "", fmt.Errorf("%w: %s length %d at offset %d, %d bytes left", wire.ErrTruncated, what, n, off, r.Len())
	}
	p := r.Bytes(int(n), what)
	u := make([]uint16, len(p)/2)
	for i := range u {
		u[i] = binary.LittleEndian.Uint16(p[2*i:])
	}
	return string(utf16.Decode(u)), nil
}

// readCharCountUTF8 reads Packet.Write(string): an int32 count of UTF-16 code units
// (C# string.Length) followed by the UTF-8 bytes. The byte count equals the prefix
// only for ASCII, so the bytes are walked until they hold that many code units.
func readCharCountUTF8(r *wire.Reader, what string) (string, error) {
	off := r.Offset()
	n := int(r.Int32LE(what + " length"))
	if err := r.Err(); err != nil {
		return "", err
	}
	if n < 0 || n > maxVersion {
		return "", fmt.Errorf("%w: %s length %d at offset %d, want 0..%d characters", wire.ErrMalformed, what, n, off, maxVersion)
	}
	peek := *r
	rest := peek.Rest()
	units, i := 0, 0
	for units < n {
		if i >= len(rest) {
			return "", fmt.Errorf("%w: %s of %d characters at offset %d: %d bytes left", wire.ErrTruncated, what, n, off+4, len(rest))
		}
		c, size := utf8.DecodeRune(rest[i:])
		if c == utf8.RuneError && size <= 1 {
			return "", fmt.Errorf("%w: %s has invalid UTF-8 at offset %d", wire.ErrMalformed, what, off+4+i)
		}
		units += utf16.RuneLen(c)
		i += size
	}
	if units != n {
		return "", fmt.Errorf("%w: %s at offset %d: %d characters end inside a surrogate pair", wire.ErrMalformed, what, off+4, n)
	}
	return string(r.Bytes(i, what)), nil
}

// Result turns a status into the exporter's Result; players asks for the name list.
func (st *status) Result(players bool) *protocols.Result {
	res := &protocols.Result{
		Game:       game,
		Name:       st.Name,
		Version:    st.Version,
		Players:    protocols.Known(int64(st.Players)),
		MaxPlayers: protocols.Known(int64(st.MaxPlayers)),
	}
	kv := func(k, v string) { res.Info = append(res.Info, protocols.KV{Key: k, Value: v}) }
	kv("format", st.Format)
	kv("version", st.Version)
	kv("players", strconv.Itoa(int(st.Players)))
	kv("max_players", strconv.Itoa(int(st.MaxPlayers)))
	if st.Format == formatLegacy {
		kv("config_bytes", strconv.Itoa(st.LegacyConfigBytes))
		return res
	}
	c := st.Config
	if c.Experience != "" {
		kv("experience", c.Experience) // the difficulty
	}
	if c.PVP != "" {
		kv("pvp", c.PVP)
	}
	res.Info = append(res.Info, c.Other...)
	if c.HasPlayers {
		// Fewer names than players: RCON sessions are counted but not listed.
		kv("players_listed", strconv.Itoa(len(c.Players)))
	}
	if st.Trailing > 0 {
		kv("trailing_bytes", strconv.Itoa(st.Trailing))
	}
	kv("config", st.ConfigRaw)
	if st.ConfigErr != nil {
		kv("config_error", st.ConfigErr.Error())
	}
	if !players {
		return res
	}
	switch {
	case st.ConfigErr != nil:
		res.PhaseErrors = append(res.PhaseErrors, protocols.PhaseError{Phase: "players", Err: st.ConfigErr})
	case !c.HasPlayers:
		res.PhaseErrors = append(res.PhaseErrors, protocols.PhaseError{Phase: "players",
			Err: fmt.Errorf("%w: config has no 'players' list", wire.ErrMalformed)})
	default:
		res.PlayerList = make([]protocols.Player, len(c.Players))
		for i, name := range c.Players {
			res.PlayerList[i] = protocols.Player{Name: name}
		}
	}
	return res
}
