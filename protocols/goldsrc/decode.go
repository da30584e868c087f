package goldsrc

import (
	"bytes"
	"fmt"
	"strconv"

	"github.com/gameserver-exporter/gameserver_exporter/protocols"
	"github.com/gameserver-exporter/gameserver_exporter/protocols/internal/steam"
	"github.com/gameserver-exporter/gameserver_exporter/protocols/wire"
)

// typeInfo is the one reply type this package decodes itself (spec §2, §3): 'C',
// S2A_INFO, the reply to the text query "info". The others are A2S records.
const typeInfo = 0x43

// infoStringTag starts the reply to the text query "infostring" (spec §3.6).
const infoStringTag = "infostringresponse"

// maxInfoKeys caps the key/values kept from one infostring; the engine writes about 20.
const maxInfoKeys = 256

// cInfo is a decoded S2A_INFO ('C') reply. Strings hold the bytes as sent (GoldSrc
// servers use legacy code pages); Result converts them.
type cInfo struct {
	Address                 string // "IP:port" as the server sees itself: never dial it
	Name, Map, Folder, Game string
	Players                 byte // every connected client, bots included
	MaxPlayers              byte
	Protocol                byte
	// The HLTV proxy appends spectators and slots as longs when a byte cannot hold them.
	HasHLTVCounts              bool
	Spectators, SpectatorSlots int32
	// Trailing counts bytes left after a complete parse.
	Trailing int
}

// checkHeader reads the -1 header and the type byte.
func checkHeader(r *wire.Reader) byte {
	h := r.Bytes(4, "header")
	t := r.Uint8("type")
	if r.Err() == nil && !bytes.Equal(h, []byte{0xFF, 0xFF, 0xFF, 0xFF}) {
		r.Fail(fmt.Errorf("%w: header % x at offset 0, want ff ff ff ff", wire.ErrMalformed, h))
	}
	return t
}

// decodeCInfo decodes the S2A_INFO ('C') reply to the text query "info" (spec §3.2).
// The HLTV longs are read only when all 8 bytes are there; anything else left over
// is counted in Trailing, not an error.
func decodeCInfo(b []byte) (*cInfo, error) {
	r := wire.NewReader(b)
	if t := checkHeader(&r); r.Err() == nil && t != typeInfo {
		return nil, fmt.Errorf("%w: type 0x%02x at offset 4, want 0x43 ('C')", wire.ErrMalformed, t)
	}
	in := &cInfo{
		Address: string(r.CString("address")),
		Name:    string(r.CString("name")),
		Map:     string(r.CString("map")),
		Folder:  string(r.CString("folder")),
		Game:    string(r.CString("game")),
	}
	in.Players = r.Uint8("players")
	in.MaxPlayers = r.Uint8("max_players")
	in.Protocol = r.Uint8("protocol")
	if err := r.Err(); err != nil {
		return nil, err
	}
	if r.Len() >= 8 {
		in.HasHLTVCounts = true
		in.Spectators = r.Int32LE("spectators")
		in.SpectatorSlots = r.Int32LE("spectator_slots")
	}
	in.Trailing = r.Len()
	return in, nil
}

// Result maps the 'C' reply onto the exporter's Result. The record has no bot count,
// so Players is every connected client; the HLTV longs, when present, win over the
// saturated byte fields (as for A2S's 0x6D).
func (in *cInfo) Result() *protocols.Result {
	res := &protocols.Result{
		Name:       wire.UTF8([]byte(in.Name)),
		Map:        wire.UTF8([]byte(in.Map)),
		Game:       wire.UTF8([]byte(in.Game)),
		Players:    protocols.Known(int64(in.Players)),
		MaxPlayers: protocols.Known(int64(in.MaxPlayers)),
	}
	if in.HasHLTVCounts {
		res.Players = protocols.Known(max(int64(in.Spectators), 0))
		res.MaxPlayers = protocols.Known(max(int64(in.SpectatorSlots), 0))
	}
	kv := []protocols.KV{
		{Key: "address", Value: wire.UTF8([]byte(in.Address))},
		{Key: "name", Value: res.Name},
		{Key: "map", Value: res.Map},
		{Key: "folder", Value: wire.UTF8([]byte(in.Folder))},
		{Key: "game", Value: res.Game},
		{Key: "players", Value: strconv.Itoa(int(in.Players))},
		{Key: "max_players", Value: strconv.Itoa(int(in.MaxPlayers))},
		{Key: "protocol", Value: strconv.Itoa(int(in.Protocol))},
	}
	if in.HasHLTVCounts {
		kv = append(kv,
			protocols.KV{Key: "spectators", Value: strconv.Itoa(int(in.Spectators))},
			protocols.KV{Key: "spectator_slots", Value: strconv.Itoa(int(in.SpectatorSlots))})
	}
	if in.Trailing > 0 {
		kv = append(kv, protocols.KV{Key: "trailing_bytes", Value: strconv.Itoa(in.Trailing)})
	}
	res.Info = kv
	return res
}

// infoString is a decoded infostringresponse: the engine's Quake-style
// "\key\value..." string (spec §3.6). Keys and values hold the bytes as sent.
type infoString struct {
	KV []protocols.KV // wire order; a repeated key keeps its first value
	// Truncated is set when the string ended on a key without value, had no NUL
	// terminator, or held more than maxInfoKeys pairs.
	Truncated bool
	// Trailing counts bytes after the string's NUL terminator.
	Trailing int
}

// decodeInfoString decodes the reply to the text query "infostring".
func decodeInfoString(b []byte) (*infoString, error) {
	r := wire.NewReader(b)
	r.Bytes(4, "header")
	tag := r.Bytes(len(infoStringTag), "response tag")
	if err := r.Err(); err != nil {
		return nil, err
	}
	if !bytes.Equal(b[:4], []byte{0xFF, 0xFF, 0xFF, 0xFF}) {
		return nil, fmt.Errorf("%w: header % x at offset 0, want ff ff ff ff", wire.ErrMalformed, b[:4])
	}
	if string(tag) != infoStringTag {
		return nil, fmt.Errorf("%w: reply at offset 4 does not start with %q", wire.ErrMalformed, infoStringTag)
	}
	// The engine ends the tag with a NUL; tolerate a newline or nothing (HLTV prints).
	if c, ok := r.Peek(); ok && (c == 0 || c == '\n') {
		r.Skip(1, "tag terminator")
	}
	body, terminated := r.Until(0)
	s := &infoString{Truncated: !terminated && len(body) > 0, Trailing: r.Len()}
	s.parse(body)
	return s, nil
}

// parse splits "\k\v\k\v" into pairs. A missing leading backslash is tolerated.
func (s *infoString) parse(body []byte) {
	body = bytes.TrimSuffix(body, []byte{'\n'})
	body = bytes.TrimPrefix(body, []byte{'\\'})
	for len(body) > 0 {
		if len(s.KV) == maxInfoKeys {
			s.Truncated = true
			return
		}
		key, rest, ok := bytes.Cut(body, []byte{'\\'})
		if !ok {
			s.Truncated = true // a key without value
			return
		}
		val, rest, _ := bytes.Cut(rest, []byte{'\\'})
		body = rest
		if _, dup := s.get(string(key)); !dup {
			s.KV = append(s.KV, protocols.KV{Key: string(key), Value: string(val)})
		}
	}
}

func (s *infoString) get(key string) (string, bool) {
	for _, kv := range s.KV {
		if kv.Key == key {
			return kv.Value, true
		}
	}
	return "", false
}

// Result maps the infostring onto the exporter's Result. As for A2S, "players"
// counts bots (the engine counts every non-proxy client) and Players is the humans.
func (s *infoString) Result() *protocols.Result {
	res := &protocols.Result{}
	str := func(key string) string { v, _ := s.get(key); return wire.UTF8([]byte(v)) }
	res.Name, res.Map, res.Game = str("hostname"), str("map"), str("description")
	players, hasPlayers := s.count("players")
	if bots, ok := s.count("bots"); ok {
		res.Bots = protocols.Known(bots)
		players = max(players-bots, 0)
	}
	if hasPlayers {
		res.Players = protocols.Known(players)
	}
	if m, ok := s.count("max"); ok {
		res.MaxPlayers = protocols.Known(m)
	}
	switch v, _ := s.get("password"); v {
	case "0":
		res.Password = protocols.FlagFalse
	case "1":
		res.Password = protocols.FlagTrue
	}
	res.Info = make([]protocols.KV, 0, len(s.KV)+1)
	for _, kv := range s.KV {
		res.Info = append(res.Info, protocols.KV{Key: wire.UTF8([]byte(kv.Key)), Value: wire.UTF8([]byte(kv.Value))})
	}
	if s.Truncated {
		res.Info = append(res.Info, protocols.KV{Key: "truncated", Value: "true"})
	}
	return res
}

// count parses a non-negative decimal value of at most 9 digits.
func (s *infoString) count(key string) (int64, bool) {
	v, ok := s.get(key)
	if !ok || v == "" || len(v) > 9 {
		return 0, false
	}
	var n int64
	for _, c := range []byte(v) {
		if c < '0' || c > '9' {
			return 0, false
		}
		n = n*10 + int64(c-'0')
	}
	return n, true
}

// reply is a decoded answer to one of the info queries: exactly one field is set.
type reply struct {
	a2s *steam.Info // 0x49 or 0x6D (A2S_INFO, "details")
	c   *cInfo      // 'C' ("info")
	is  *infoString // "infostring"
}

// isInfoReply tells whether a complete message answers an info query (or is an
// A2S challenge to one).
func isInfoReply(msg []byte) bool {
	if len(msg) < 5 {
		return false
	}
	switch msg[4] {
	case steam.TypeInfo, steam.TypeInfoDetailed, typeInfo, steam.TypeChallenge:
		return true
	}
	return bytes.HasPrefix(msg[4:], []byte(infoStringTag))
}

// decodeInfoReply decodes any reply to an info query: 0x49 or 0x6D (A2S_INFO or the
// text query "details", decoded as A2S records), 'C' ("info") or
// infostringresponse ("infostring"), and maps it onto the exporter's Result.
func decodeInfoReply(msg []byte) (*protocols.Result, error) {
	r, err := decodeReply(msg)
	if err != nil {
		return nil, err
	}
	return r.result(), nil
}

func decodeReply(msg []byte) (reply, error) {
	if len(msg) < 5 {
		return reply{}, fmt.Errorf("%w: reply of %d bytes", wire.ErrTruncated, len(msg))
	}
	var (
		r   reply
		err error
	)
	switch {
	case msg[4] == steam.TypeInfo || msg[4] == steam.TypeInfoDetailed:
		r.a2s, err = steam.DecodeInfo(msg)
	case msg[4] == typeInfo:
		r.c, err = decodeCInfo(msg)
	case bytes.HasPrefix(msg[4:], []byte(infoStringTag)):
		r.is, err = decodeInfoString(msg)
	default:
		err = fmt.Errorf("%w: type 0x%02x at offset 4 answers no info query", wire.ErrMalformed, msg[4])
	}
	return r, err
}

func (r reply) result() *protocols.Result {
	var res *protocols.Result
	switch {
	case r.a2s != nil:
		res = r.a2s.Result()
		res.Info = res.InfoKV()
		// HLTV's spectator longs are signed on the wire: a negative one is no count.
		for _, c := range []*protocols.Count{&res.Players, &res.MaxPlayers} {
			c.Value = max(c.Value, 0)
		}
	case r.c != nil:
		res = r.c.Result()
	default:
		res = r.is.Result()
	}
	return res
}

// recode reads the reply's strings with a module's `encoding:` (steam.Info.Recode).
func (r reply) recode(text func([]byte) string) {
	switch {
	case r.a2s != nil:
		r.a2s.Recode(text)
	case r.c != nil:
		for _, s := range []*string{&r.c.Address, &r.c.Name, &r.c.Map, &r.c.Folder, &r.c.Game} {
			*s = text([]byte(*s))
		}
	case r.is != nil:
		steam.RecodeKV(text, r.is.KV)
	}
}

// hltvEmpty tells whether the reply comes from an HLTV proxy with nobody on it: the
// proxy then sends no players reply at all (spec §3.4), so none is awaited.
func (r reply) hltvEmpty() bool {
	in := r.a2s
	return in != nil && in.ServerType|0x20 == 'p' && in.Players == 0 && (!in.HasHLTVCounts || in.Spectators <= 0)
}

// withDetailed adds to res.Info the keys of a 0x6D reply that the 0x49 reply it
// accompanied lacks (address, the mod block), so a server that sends both keeps
// its mod info in the debug output.
func withDetailed(res *protocols.Result, detailed *steam.Info) {
	have := make(map[string]bool, len(res.Info))
	for _, kv := range res.Info {
		have[kv.Key] = true
	}
	for _, kv := range detailed.KV() {
		if !have[kv.Key] {
			res.Info = append(res.Info, kv)
		}
	}
}

// decodePlayers decodes the S2A_PLAYER (0x44) reply to A2S_PLAYER or to the text
// query "players" as an A2S record. An empty datagram is an empty list: the HLTV
// proxy sends one when nobody is connected (spec §3.4). text, when not nil, is
// the module's `encoding:`.
func decodePlayers(msg []byte, text func([]byte) string) ([]protocols.Player, error) {
	if len(msg) == 0 {
		return []protocols.Player{}, nil
	}
	p, err := steam.DecodePlayers(msg, false)
	if err != nil {
		return nil, err
	}
	if text != nil {
		p.Recode(text)
	}
	return p.Result(0), nil
}

// decodeRules decodes the S2A_RULES (0x45) reply to A2S_RULES or to the text query
// "rules" as an A2S record.
func decodeRules(msg []byte) ([]protocols.KV, error) {
	r, err := steam.DecodeRules(msg)
	if err != nil {
		return nil, err
	}
	return r.Result(), nil
}
