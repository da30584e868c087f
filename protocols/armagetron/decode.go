package armagetron

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/gameserver-exporter/gameserver_exporter/protocols"
	"github.com/gameserver-exporter/gameserver_exporter/protocols/wire"
)

// Message descriptors of the server-info exchange.
const (
	descSmallInfo    = 50 // small server info (answer)
	descBigInfo      = 51 // big server info (answer)
	descSmallRequest = 52
	descBigRequest   = 53
)

// senderUnconnected is the sender id a client puts in the trailer before it
// has a connection (what the reference clients send).
const senderUnconnected = 0x11

// maxPlayerNames caps the names kept from the user list.
const maxPlayerNames = 256

// request builds a request message with no data: descriptor, message id 0,
// length 0, and the datagram's sender-id trailer.
func request(desc uint16) []byte {
	b := make([]byte, 8)
	binary.BigEndian.PutUint16(b, desc)
	binary.BigEndian.PutUint16(b[6:], senderUnconnected)
	return b
}

// findMessage returns the data of the first message with descriptor desc in a
// datagram; ok is false when the datagram holds none. A message whose length
// runs past the datagram is ErrTruncated.
func findMessage(b []byte, desc uint16) (data []byte, ok bool, err error) {
	r := wire.NewReader(b)
	// at least a message header left: anything shorter is the sender-id trailer
	for r.Len() >= 6 {
		start := r.Offset()
		d := r.Uint16BE("message descriptor")
		r.Skip(2, "message id")
		words := int(r.Uint16BE("message length"))
		p := r.Bytes(2*words, fmt.Sprintf("data of message %d at offset %d", d, start))
		if err := r.Err(); err != nil {
			return nil, false, err
		}
		if d == desc {
			return p, true, nil
		}
	}
	return nil, false, nil
}

// serverInfo is the decoded big server info.
type serverInfo struct {
	Port       uint32
	Hostname   string // the address the server believes it has; usually empty
	Name       string // as sent, colour codes included
	Players    uint32
	VersionMin uint32 // network protocol versions the server accepts
	VersionMax uint32
	Release    string
	MaxPlayers uint32
	Users      []string // player names, colour codes included
	Options    string
	URL        string
	GlobalIDs  string
	HasExtras  bool // 0.2.8+: global ids sent
	ExtraWords int  // words after the known fields (0.2.9 adds some), ignored
}

// decodeBigInfo decodes the data of a big server-info message. Global ids
// (0.2.8) are optional: older servers end after the URL.
func decodeBigInfo(data []byte) (serverInfo, error) {
	r := wire.NewReader(data)
	var s serverInfo
	s.Port = readUint(&r, "port")
	s.Hostname = readString(&r, "hostname")
	s.Name = readString(&r, "server name")
	s.Players = readUint(&r, "players")
	s.VersionMin = readUint(&r, "version min")
	s.VersionMax = readUint(&r, "version max")
	s.Release = readString(&r, "release")
	s.MaxPlayers = readUint(&r, "max players")
	users := readString(&r, "user names")
	s.Options = readString(&r, "options")
	s.URL = readString(&r, "url")
	if err := r.Err(); err != nil {
		return serverInfo{}, err
	}
	if r.Len() >= 2 {
		s.GlobalIDs = readString(&r, "global ids")
		if err := r.Err(); err != nil {
			return serverInfo{}, err
		}
		s.HasExtras = true
	}
	s.ExtraWords = r.Len() / 2
	for name := range strings.SplitSeq(users, "\n") {
		if name == "" {
			continue
		}
		if len(s.Users) == maxPlayerNames {
			break
		}
		s.Users = append(s.Users, name)
	}
	return s, nil
}

// decodeReply finds the big server info in a datagram and decodes it.
func decodeReply(b []byte) (serverInfo, error) {
	data, ok, err := findMessage(b, descBigInfo)
	if err != nil {
		return serverInfo{}, err
	}
	if !ok {
		return serverInfo{}, fmt.Errorf("%w: no big server info (descriptor %d) in the reply", wire.ErrMalformed, descBigInfo)
	}
	return decodeBigInfo(data)
}

// readUint reads Armagetron's 32-bit integer: two words, low word first.
func readUint(r *wire.Reader, what string) uint32 {
	lo := r.Uint16BE(what + " low word")
	hi := r.Uint16BE(what + " high word")
	return uint32(hi)<<16 | uint32(lo)
}

// readString reads a string as the game's ReadRaw (nNetwork.cpp) does: a length
// counting the NUL, then ceil(length/2) words, each the 16-bit sum of two
// *signed* chars, the earlier one plus the later one shifted up 8. After a
// character >= 0x80 (negative) the later one arrives one lower, so it is the
// word minus the sign-extended low byte, shifted down. NULs are dropped. The
// bytes are Latin-1: the game converts its UTF-8 to Latin-1 on the wire.
func readString(r *wire.Reader, what string) string {
	n := int(r.Uint16BE(what + " length"))
	p := r.Bytes(2*((n+1)/2), what)
	if r.Err() != nil || n == 0 {
		return ""
	}
	out := make([]byte, 0, n)
	for i := 0; i+1 < len(p); i += 2 {
		w := int16(binary.BigEndian.Uint16(p[i:]))
		lo := int8(w)
		hi := byte((w - int16(lo)) >> 8)
		out = append(out, byte(lo))
		if i+1 < n {
			out = append(out, hi)
		}
	}
	out = bytes.ReplaceAll(out, []byte{0}, nil)
	return wire.Latin1(out)
}

// stripColors removes colour codes as the game's tColoredString::RemoveColors
// does: "0x" and the next six characters whatever they are (0xff0000, 0xFF00aa,
// 0xRESETT), and a code cut short at the string's end with the rest of it.
func stripColors(s string) string {
	if !strings.Contains(s, "0x") {
		return s
	}
	var b strings.Builder
	for rest := s; rest != ""; {
		i := strings.Index(rest, "0x")
		if i < 0 {
			b.WriteString(rest)
			break
		}
		b.WriteString(rest[:i])
		rest = rest[i+2:]
		// six characters, not bytes: a Latin-1 letter is one character to the game
		for range 6 {
			if rest == "" {
				break
			}
			_, n := utf8.DecodeRuneInString(rest)
			rest = rest[n:]
		}
	}
	return b.String()
}

// Result turns the server info into the exporter's Result.
func (s serverInfo) Result(players, rules bool) *protocols.Result {
	res := &protocols.Result{
		Name:       stripColors(s.Name),
		Version:    s.Release,
		Players:    protocols.Known(int64(s.Players)),
		MaxPlayers: protocols.Known(int64(s.MaxPlayers)),
	}
	u := func(v uint32) string { return strconv.FormatUint(uint64(v), 10) }
	res.Info = []protocols.KV{
		{Key: "name", Value: s.Name},
		{Key: "port", Value: u(s.Port)},
		{Key: "hostname", Value: s.Hostname},
		{Key: "players", Value: u(s.Players)},
		{Key: "max_players", Value: u(s.MaxPlayers)},
		{Key: "version_min", Value: u(s.VersionMin)},
		{Key: "version_max", Value: u(s.VersionMax)},
		{Key: "release", Value: s.Release},
		{Key: "options", Value: s.Options},
		{Key: "url", Value: s.URL},
	}
	if s.HasExtras {
		res.Info = append(res.Info, protocols.KV{Key: "global_ids", Value: s.GlobalIDs})
	}
	if players {
		res.PlayerList = make([]protocols.Player, 0, len(s.Users))
		for _, n := range s.Users {
			res.PlayerList = append(res.PlayerList, protocols.Player{Name: stripColors(n)})
		}
	}
	if rules {
		res.Rules = []protocols.KV{
			{Key: "options", Value: stripColors(s.Options)},
			{Key: "url", Value: s.URL},
			{Key: "version_min", Value: u(s.VersionMin)},
			{Key: "version_max", Value: u(s.VersionMax)},
		}
	}
	return res
}
