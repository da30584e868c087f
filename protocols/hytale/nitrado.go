package hytale

import (
	"context"
	"fmt"
	"net/http"
	"net/netip"

	"github.com/gameserver-exporter/gameserver_exporter/protocols"
	"github.com/gameserver-exporter/gameserver_exporter/protocols/wire"
)

const (
	nitradoPath    = "/Nitrado/Query"
	maxNitradoBody = 256 << 10
	maxNitradoList = 1024 // players kept from one answer
)

// nitradoReply is what is read of Nitrado's JSON; counts are pointers so an
// absent one stays unknown.
type nitradoReply struct {
	Server *struct {
		Name       string `json:"Name"`
		Version    string `json:"Version"`
		MaxPlayers *int64 `json:"MaxPlayers"`
	} `json:"Server"`
	Universe *struct {
		CurrentPlayers *int64 `json:"CurrentPlayers"`
		DefaultWorld   string `json:"DefaultWorld"`
	} `json:"Universe"`
	Players []struct {
		Name string `json:"Name"`
	} `json:"Players"`
}

func (r *nitradoReply) result(players bool) (*protocols.Result, error) {
	if r.Server == nil && r.Universe == nil {
		return nil, fmt.Errorf("%w: JSON without Server or Universe", wire.ErrMalformed)
	}
	res := &protocols.Result{}
	if s := r.Server; s != nil {
		res.Name, res.Version = s.Name, s.Version
		if s.MaxPlayers != nil && *s.MaxPlayers >= 0 {
			res.MaxPlayers = protocols.Known(*s.MaxPlayers)
		}
	}
	if u := r.Universe; u != nil {
		res.Map = u.DefaultWorld
		if u.CurrentPlayers != nil && *u.CurrentPlayers >= 0 {
			res.Players = protocols.Known(*u.CurrentPlayers)
		}
	}
	if players && r.Players != nil {
		res.PlayerList = make([]protocols.Player, 0, min(len(r.Players), maxNitradoList))
		for _, p := range r.Players[:min(len(r.Players), maxNitradoList)] {
			res.PlayerList = append(res.PlayerList, protocols.Player{Name: p.Name})
		}
	}
	return res, nil
}

// nitrado is the Nitrado flavour: one HTTP GET. The plugin answers 401/403
// when its permissions keep anonymous readers out.
func (q *querier) nitrado(ctx context.Context, addr netip.AddrPort, tr *wire.Trace) (*protocols.Result, error) {
	hdr := http.Header{"Accept": []string{"application/json"}}
	resp, err := wire.DoHTTP(ctx, addr, wire.HTTPRequest{Path: nitradoPath, Header: hdr, MaxBody: maxNitradoBody}, tr)
	if err != nil {
		return nil, err
	}
	var r nitradoReply
	if err := wire.DecodeJSON(resp, &r); err != nil {
		if resp.Status == http.StatusUnauthorized || resp.Status == http.StatusForbidden {
			err = fmt.Errorf("%w: the plugin's permissions must let anonymous readers query", err)
		}
		return nil, err
	}
	return r.result(q.players)
}
