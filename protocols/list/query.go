package list

import (
	"context"
	"fmt"
	"strings"

	"github.com/gameserver-exporter/gameserver_exporter/protocols"
	"github.com/gameserver-exporter/gameserver_exporter/protocols/master"
	"github.com/gameserver-exporter/gameserver_exporter/protocols/wire"
)

type querier struct {
	source  string
	players bool // the list's player names, where it has them
}

// Query looks the target up in the source's cached list: by its address, or
// by the name it was given as with its port for a list that names servers.
//
// Not a protocols.UDPExchange: no request at all, a cached list.
func (q *querier) Query(ctx context.Context, t protocols.Target, tr *wire.Trace) (*protocols.Result, error) {
	return protocols.InfoPhase(ctx, t, tr, q.lookup)
}

func (q *querier) lookup(ctx context.Context, t protocols.Target, tr *wire.Trace) (*protocols.Result, error) {
	if err := ctx.Err(); err != nil {
		return nil, fmt.Errorf("%w: probe cancelled", wire.ErrTimeout)
	}
	if q.source == "" {
		return nil, fmt.Errorf("%w: the module names no list (list: {source: NAME})", wire.ErrServer)
	}
	c := master.Cached()
	if c == nil {
		return nil, fmt.Errorf("%w: no discovery lists in this process", wire.ErrServer)
	}
	if a, ok := c.(master.Awaiter); ok {
		// A built-in list starts on the first probe that reads it: wait for
		// its first fetch within this probe's deadline.
		if err := a.Await(ctx, q.source); err != nil {
			if ctx.Err() != nil {
				return nil, fmt.Errorf("%w: the list of source %q is still being fetched (it starts on the first probe)", wire.ErrTimeout, q.source)
			}
			return nil, fmt.Errorf("%w: source %q: %v", wire.ErrServer, q.source, err)
		}
	}
	var host string
	if t.Host != "" {
		host = hostPort(t.Host, t.Addr.Port())
	}
	e, listed, known := c.Lookup(q.source, t.Addr, host)
	switch {
	case !known:
		return nil, fmt.Errorf("%w: source %q is not defined or has no list yet", wire.ErrServer, q.source)
	case !listed:
		return nil, fmt.Errorf("%w: %s is not in the list of source %q", wire.ErrNotListed, t.Addr, q.source)
	}
	tr.Logf("listed in %q as %s", q.source, e.Target())
	res := result(&e)
	if q.players && e.PlayerNames != "" {
		for _, n := range strings.Split(e.PlayerNames, "\n") {
			res.PlayerList = append(res.PlayerList, protocols.Player{Name: n})
		}
	}
	return res, nil
}

// result is what the list knows of the server.
func result(e *master.Entry) *protocols.Result {
	return &protocols.Result{
		Name: e.Name, Map: e.Map, Game: e.Game, Version: e.Version,
		Players: e.Players, MaxPlayers: e.Max, Password: e.Password,
		Info: []protocols.KV{{Key: "listed_as", Value: e.Target()}, {Key: "country", Value: e.Country}},
	}
}
