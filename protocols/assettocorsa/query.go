package assettocorsa

import (
	"context"
	"math/rand/v2"
	"net/netip"
	"strconv"

	"github.com/gameserver-exporter/gameserver_exporter/protocols"
	"github.com/gameserver-exporter/gameserver_exporter/protocols/wire"
)

type querier struct {
	s protocols.Settings
}

// maxBody caps each reply: a full entry list is a few KiB.
const maxBody = 256 << 10

// get fetches path as written: the server matches "/JSON|" literally.
func get(ctx context.Context, addr netip.AddrPort, tr *wire.Trace, path string) ([]byte, error) {
	req := protocols.GetJSON(path, maxBody)
	req.LiteralPath = true
	resp, err := wire.DoHTTP(ctx, addr, req, tr)
	if err != nil {
		return nil, err
	}
	return wire.JSONBody(resp)
}

// Query reads /INFO, then, when the module asks for players, the entry list.
// The entry list's path carries a random number (as the game's own lobby sends
// it) so that no cache in between answers an old list.
//
// Not a protocols.HTTPExchange: two requests, the info and then the entry list.
func (q *querier) Query(ctx context.Context, t protocols.Target, tr *wire.Trace) (*protocols.Result, error) {
	p := tr.Begin("info")
	body, err := get(ctx, t.Addr, tr, "/INFO")
	var in *info
	if err == nil {
		in, err = decodeInfo(body)
	}
	tr.End(p, err)
	if err != nil {
		return nil, err
	}
	res := in.result()
	if !q.s.Players {
		return res, nil
	}
	if cars, ok := protocols.Phase(&res.PhaseErrors, tr, "players", func() ([]car, error) {
		body, err := get(ctx, t.Addr, tr, "/JSON|"+strconv.FormatUint(rand.Uint64N(1e15), 10))
		if err != nil {
			return nil, err
		}
		return decodeCars(body)
	}); ok {
		res.PlayerList = players(cars)
	}
	return res, nil
}
