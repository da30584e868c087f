package hytale

import (
	"bytes"
	"context"
	"fmt"
	"net/netip"
	"strconv"

	"github.com/gameserver-exporter/gameserver_exporter/protocols"
	"github.com/gameserver-exporter/gameserver_exporter/protocols/wire"
)

// HyQuery v1 framing.
var (
	hyRequest     = []byte("HYQUERY\x00\x00") // magic, type 0 (basic)
	hyFullRequest = []byte("HYQUERY\x00\x01") // type 1 (full): the player list too
	hyMagic       = []byte("HYREPLY\x00")
)

// maxHyPlayers caps the player list read from a full reply.
const maxHyPlayers = 1024

// hyInfo is a decoded HyQuery reply.
type hyInfo struct {
	Name, MOTD, Version string
	Players, Max, Port  int32
	// List holds the player names of a full reply (nil for a basic one).
	List []string
}

// decodeHyQuery reads a HyQuery reply, basic or full (the fields of basic come
// first in both; a full one then lists the players).
func decodeHyQuery(b []byte) (*hyInfo, error) {
	r := wire.NewReader(b)
	if m := r.Bytes(len(hyMagic), "magic"); r.Err() == nil && !bytes.Equal(m, hyMagic) {
		return nil, fmt.Errorf("%w: magic %q, want HYREPLY\\0", wire.ErrMalformed, m)
	}
	full := r.Uint8("type") == 1
	str := func(what string) string {
		n := int(r.Uint16LE(what + " length"))
		return wire.UTF8(r.Bytes(n, what))
	}
	in := &hyInfo{Name: str("server name"), MOTD: str("motd")}
	in.Players = r.Int32LE("players")
	in.Max = r.Int32LE("max players")
	in.Port = r.Int32LE("port")
	in.Version = str("version")
	if full && r.Err() == nil {
		// A count, then each name and its 16-byte UUID (0 when the server hides
		// its list); the plugin list after it is not read.
		n := r.Int32LE("player list count")
		if n < 0 || n > maxHyPlayers {
			return nil, fmt.Errorf("%w: player list of %d, at most %d are read", wire.ErrTooLarge, n, maxHyPlayers)
		}
		in.List = make([]string, 0, min(int(n), r.Len()/18))
		for i := 0; i < int(n) && r.Err() == nil; i++ {
			name := str("player name")
			r.Skip(16, "player uuid")
			in.List = append(in.List, name)
		}
	}
	if err := r.Err(); err != nil {
		return nil, err
	}
	if in.Players < 0 || in.Max < 0 {
		return nil, fmt.Errorf("%w: player counts %d/%d", wire.ErrMalformed, in.Players, in.Max)
	}
	return in, nil
}

func (in *hyInfo) result() *protocols.Result {
	res := &protocols.Result{
		Name:       in.Name,
		Version:    in.Version,
		Players:    protocols.Known(int64(in.Players)),
		MaxPlayers: protocols.Known(int64(in.Max)),
		Info: []protocols.KV{
			{Key: "motd", Value: in.MOTD},
			{Key: "port", Value: strconv.Itoa(int(in.Port))},
		},
	}
	if len(in.List) > 0 {
		res.PlayerList = make([]protocols.Player, len(in.List))
		for i, n := range in.List {
			res.PlayerList[i] = protocols.Player{Name: n}
		}
	}
	return res
}

// hyquery is the HyQuery flavour: one UDP exchange.
func (q *querier) hyquery(ctx context.Context, addr netip.AddrPort, tr *wire.Trace) (*protocols.Result, error) {
	conn, err := protocols.DialUDP(ctx, protocols.At(addr), tr, q.retries)
	if err != nil {
		return nil, err
	}
	defer conn.Close()
	req := hyRequest
	if q.players {
		req = hyFullRequest
	}
	in, err := wire.Exchange(ctx, conn, req, func(d []byte) (*hyInfo, error, error) {
		if !bytes.HasPrefix(d, hyMagic) {
			return nil, fmt.Errorf("not a HyQuery reply"), nil
		}
		in, err := decodeHyQuery(d)
		if err != nil {
			err = ownAnswer{err} // the magic was HyQuery's
		}
		return in, nil, err
	})
	if err != nil {
		return nil, err
	}
	return in.result(), nil
}
