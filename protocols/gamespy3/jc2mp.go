package gamespy3

import (
	"fmt"

	"github.com/gameserver-exporter/gameserver_exporter/protocols"
	"github.com/gameserver-exporter/gameserver_exporter/protocols/internal/gamespy"
	"github.com/gameserver-exporter/gameserver_exporter/protocols/wire"
)

// maxJC2Players caps JC2-MP's u16 player count (its servers hold up to a few thousand,
// but one datagram cannot list more than this anyway).
const maxJC2Players = 4096

// decodeJC2MP decodes a Just Cause 2 Multiplayer reply (spec §7): the splitnum header
// (byte 14 carries no last flag: the datagram is the whole reply), K/V pairs up to an
// empty key, then a big-endian u16 player count and, per player, name, Steam id and
// a big-endian u16 ping. Strings are UTF-8. A player list cut short keeps the
// complete entries and the error wraps ErrTruncated.
func decodeJC2MP(b []byte) (*protocols.Result, error) {
	p, err := parsePacket(b)
	if err != nil {
		return nil, err
	}
	return decodeJC2MPPacket(p)
}

func decodeJC2MPPacket(p packet) (*protocols.Result, error) {
	rd := wire.NewReader(p.body)
	r := &reply{}
	for {
		key := rd.CString("key")
		if rd.Err() != nil {
			break
		}
		if len(key) == 0 {
			r.kvDone = true
			break
		}
		val := rd.CString("value")
		if rd.Err() != nil {
			break
		}
		if len(r.kv) == maxPairs {
			return nil, fmt.Errorf("%w: more than %d key/value pairs", wire.ErrTooLarge, maxPairs)
		}
		r.kv = append(r.kv, gamespy.Pair{Key: string(key), Value: val})
	}
	res := r.result(true)
	if v, _ := gamespy.Lookup(r.kv, "version"); len(v) > 0 {
		res.Version = wire.UTF8(v)
	}
	if !r.kvDone {
		return res, fmt.Errorf("key/value section: %w", rd.Err())
	}
	count := int(rd.Uint16BE("player count"))
	if rd.Err() != nil {
		return res, rd.Err()
	}
	if count > maxJC2Players {
		return nil, fmt.Errorf("%w: player count %d at offset %d, cap %d", wire.ErrTooLarge, count, headerLen+rd.Offset()-2, maxJC2Players)
	}
	res.PlayerList = make([]protocols.Player, 0, min(count, rd.Len()/4))
	for i := range count {
		name := rd.CString("player name")
		rd.CString("player steam id")
		ping := rd.Uint16BE("player ping")
		if err := rd.Err(); err != nil {
			return res, fmt.Errorf("player %d: %w", i, err)
		}
		res.PlayerList = append(res.PlayerList, protocols.Player{Name: wire.UTF8(name), Ping: protocols.Known(int64(ping))})
	}
	return res, nil
}
