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
	hyRequest = []byte("HYQUERY\x00\x00") // magic, type 0 (basic)
	hyMagic   = []byte("HYREPLY\x00")
)

// hyInfo is a decoded HyQuery basic reply.
type hyInfo struct {
	Name, MOTD, Version string
	Players, Max, Port  int32
}

// decodeHyQuery reads a HyQuery reply (basic or full: the fields of basic come
// first in both; what follows in a full reply is not read).
func decodeHyQuery(b []byte) (*hyInfo, error) {
	r := wire.NewReader(b)
	if m := r.Bytes(len(hyMagic), "magic"); r.Err() == nil && !bytes.Equal(m, hyMagic) {
		return nil, fmt.Errorf("%w: magic %q, want HYREPLY\\0", wire.ErrMalformed, m)
	}
	r.Skip(1, "type")
	str := func(what string) string {
		n := int(r.Uint16LE(what + " length"))
		return wire.UTF8(r.Bytes(n, what))
	}
	in := &hyInfo{Name: str("server name"), MOTD: str("motd")}
	in.Players = r.Int32LE("players")
	in.Max = r.Int32LE("max players")
	in.Port = r.Int32LE("port")
	in.Version = str("version")
	if err := r.Err(); err != nil {
		return nil, err
	}
	if in.Players < 0 || in.Max < 0 {
		return nil, fmt.Errorf("%w: player counts %d/%d", wire.ErrMalformed, in.Players, in.Max)
	}
	return in, nil
}

func (in *hyInfo) result() *protocols.Result {
	return &protocols.Result{
		Name:       in.Name,
		Version:    in.Version,
		Players:    protocols.Known(int64(in.Players)),
		MaxPlayers: protocols.Known(int64(in.Max)),
		Info: []protocols.KV{
			{Key: "motd", Value: in.MOTD},
			{Key: "port", Value: strconv.Itoa(int(in.Port))},
		},
	}
}

// hyquery is the HyQuery flavour: one UDP exchange.
func (q *querier) hyquery(ctx context.Context, addr netip.AddrPort, tr *wire.Trace) (*protocols.Result, error) {
	conn, err := wire.DialUDP(ctx, addr, tr)
	if err != nil {
		return nil, err
	}
	defer conn.Close()
	conn.Retries = q.retries
	in, err := wire.Exchange(ctx, conn, hyRequest, func(d []byte) (*hyInfo, error, error) {
		if !bytes.HasPrefix(d, hyMagic) {
			return nil, fmt.Errorf("not a HyQuery reply"), nil
		}
		in, err := decodeHyQuery(d)
		return in, nil, err
	})
	if err != nil {
		return nil, err
	}
	return in.result(), nil
}
