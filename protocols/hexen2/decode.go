package hexen2

import (
	"encoding/binary"
	"fmt"
	"strconv"

	"github.com/gameserver-exporter/gameserver_exporter/protocols"
	"github.com/gameserver-exporter/gameserver_exporter/protocols/internal/idtech"
	"github.com/gameserver-exporter/gameserver_exporter/protocols/wire"
)

// Control packet op codes (net.h CCREQ_* / CCREP_*).
const (
	reqServerInfo = 0x02
	reqPlayerInfo = 0x03
	reqRuleInfo   = 0x04
	repReject     = 0x82
	repServerInfo = 0x83
	repPlayerInfo = 0x84
	repRuleInfo   = 0x85
)

const (
	headerLen = 5      // flags and length (u32 BE), op code
	flagCtl   = 0x8000 // NETFLAG_CTL, the high half of the first u32
	gameName  = "HEXENII"
	// netProtocol is Hexen II's NET_PROTOCOL_VERSION (Quake's is 3).
	netProtocol = 4
	// maxRules caps the rule walk; a stock server has a few dozen server cvars.
	maxRules = 256
)

// packet frames a control packet: the flag and the whole length, the op code, body.
func packet(op byte, body ...byte) []byte {
	b := make([]byte, 4, headerLen+len(body))
	binary.BigEndian.PutUint32(b, uint32(flagCtl)<<16|uint32(headerLen+len(body)))
	return append(append(b, op), body...)
}

var serverInfoRequest = packet(reqServerInfo, append([]byte(gameName+"\x00"), netProtocol)...)

func playerRequest(i uint8) []byte { return packet(reqPlayerInfo, i) }

func ruleRequest(prev string) []byte { return packet(reqRuleInfo, append([]byte(prev), 0)...) }

// control splits a datagram into its op code and body. skip says the datagram is
// no control packet (another game packet, a stray); err that it claims to be one
// but its length field lies.
func control(b []byte) (op byte, body []byte, skip, err error) {
	if len(b) < headerLen {
		return 0, nil, fmt.Errorf("%w: %d-byte datagram, a control packet has at least %d", wire.ErrTruncated, len(b), headerLen), nil
	}
	h := binary.BigEndian.Uint32(b)
	if h>>16 != flagCtl {
		return 0, nil, fmt.Errorf("%w: flags 0x%04X, not a control packet", wire.ErrMalformed, h>>16), nil
	}
	if n := int(h & 0xFFFF); n != len(b) {
		return 0, nil, nil, fmt.Errorf("%w: control packet length field %d, datagram of %d bytes", wire.ErrMalformed, n, len(b))
	}
	return b[4], b[headerLen:], nil, nil
}

// rejected turns a CCREP_REJECT into the server's reason.
func rejected(body []byte) error {
	rd := wire.NewReader(body)
	return fmt.Errorf("%w: server rejected the request: %q", wire.ErrServer, idtech.Readable(rd.CString("reason")))
}

// serverInfo is a decoded CCREP_SERVER_INFO.
type serverInfo struct {
	Address, Name, Map string
	Players, Max       uint8
	Protocol           uint8
}

func decodeServerInfo(body []byte) (*serverInfo, error) {
	rd := wire.NewReader(body)
	s := &serverInfo{
		Address: idtech.Readable(rd.CString("address")),
		Name:    idtech.Readable(rd.CString("server name")),
		Map:     idtech.Readable(rd.CString("map")),
	}
	s.Players = rd.Uint8("players")
	s.Max = rd.Uint8("max players")
	s.Protocol = rd.Uint8("net protocol")
	if err := rd.Err(); err != nil {
		return nil, err
	}
	return s, nil
}

// player is a decoded CCREP_PLAYER_INFO; the client's address is not kept.
type player struct {
	Index   uint8
	Name    string
	Colours uint32
	Frags   int32
	Seconds int32
}

// decodePlayer reads a player reply and blanks the client's address in b itself
// (the trace holds b): a player's IP never reaches debug output.
func decodePlayer(b []byte) (*player, error) {
	rd := wire.NewReader(b[headerLen:])
	p := &player{Index: rd.Uint8("player index")}
	p.Name = idtech.Readable(rd.CString("player name"))
	p.Colours = rd.Uint32LE("player colours")
	p.Frags = rd.Int32LE("player frags")
	p.Seconds = rd.Int32LE("player connect time")
	off := headerLen + rd.Offset()
	rd.CString("player address")
	for i := off; i < headerLen+rd.Offset()-1 && i < len(b); i++ {
		b[i] = 'x'
	}
	if err := rd.Err(); err != nil {
		return nil, err
	}
	return p, nil
}

// decodeRule reads a rule reply: ok is false for the empty reply after the last.
func decodeRule(body []byte) (kv protocols.KV, ok bool, err error) {
	if len(body) == 0 {
		return kv, false, nil
	}
	rd := wire.NewReader(body)
	kv.Key = idtech.Readable(rd.CString("rule name"))
	kv.Value = idtech.Readable(rd.CString("rule value"))
	return kv, true, rd.Err()
}

func (s *serverInfo) result() *protocols.Result {
	return &protocols.Result{
		Name:       s.Name,
		Map:        s.Map,
		Players:    protocols.Known(int64(s.Players)),
		MaxPlayers: protocols.Known(int64(s.Max)),
		Version:    strconv.Itoa(int(s.Protocol)),
		Info: []protocols.KV{
			{Key: "address", Value: s.Address},
			{Key: "net_protocol", Value: strconv.Itoa(int(s.Protocol))},
		},
	}
}

func (p *player) result() protocols.Player {
	pl := protocols.Player{Name: p.Name, Score: protocols.Known(int64(p.Frags))}
	if p.Seconds >= 0 {
		pl.Duration, pl.DurationKnown = float64(p.Seconds), true
	}
	return pl
}
