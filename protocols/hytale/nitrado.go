package hytale

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/netip"
	"strconv"

	"github.com/gameserver-exporter/gameserver_exporter/protocols"
	"github.com/gameserver-exporter/gameserver_exporter/protocols/wire"
)

const (
	nitradoPath    = "/Nitrado/Query"
	maxNitradoBody = 256 << 10
	maxNitradoList = 1024 // players kept from one answer
	// nitradoAccept asks the plugin's versioned type (its README's advice),
	// plain JSON from a release before content negotiation.
	nitradoAccept = "application/x.hytale.nitrado.query+json;version=1, application/json;q=0.5"
)

// nitradoReply is what is read of the plugin's JSON. Each section is there
// only when the reader's permissions grant it: since 1.1.0 the README's public
// setup grants Basic alone. Counts are pointers so an absent one stays unknown.
type nitradoReply struct {
	Basic *struct {
		Name           string `json:"Name"`
		Version        string `json:"Version"`
		MaxPlayers     *int64 `json:"MaxPlayers"`
		CurrentPlayers *int64 `json:"CurrentPlayers"`
		Address        string `json:"Address"`
	} `json:"Basic"`
	Server *struct {
		Name       string `json:"Name"`
		Version    string `json:"Version"`
		MaxPlayers *int64 `json:"MaxPlayers"`
	} `json:"Server"`
	Universe *struct {
		CurrentPlayers *int64 `json:"CurrentPlayers"`
		DefaultWorld   string `json:"DefaultWorld"`
	} `json:"Universe"`
	Players *nitradoPlayers `json:"Players"`
}

// nitradoPlayers is the player list: an array since 1.0.1, an object keyed by
// UUID in 1.0.0. Names past maxNitradoList are counted, not kept.
type nitradoPlayers struct {
	names []string
	n     int
}

type nitradoPlayer struct {
	Name string `json:"Name"`
}

func (p *nitradoPlayers) UnmarshalJSON(b []byte) error {
	b = bytes.TrimSpace(b)
	add := func(pl nitradoPlayer) {
		if len(p.names) < maxNitradoList {
			p.names = append(p.names, pl.Name)
		}
		p.n++
	}
	if len(b) > 0 && b[0] == '[' {
		var list []nitradoPlayer
		if err := json.Unmarshal(b, &list); err != nil {
			return err
		}
		for _, pl := range list {
			add(pl)
		}
		return nil
	}
	// 1.0.0's object, read in order (a map would lose it)
	d := json.NewDecoder(bytes.NewReader(b))
	if t, err := d.Token(); err != nil || t != json.Delim('{') {
		return fmt.Errorf("players are neither a list nor an object")
	}
	for d.More() {
		if _, err := d.Token(); err != nil { // the UUID
			return err
		}
		var pl nitradoPlayer
		if err := d.Decode(&pl); err != nil {
			return err
		}
		add(pl)
	}
	return nil
}

func (r *nitradoReply) result(players bool) (*protocols.Result, error) {
	if r.Basic == nil && r.Server == nil && r.Universe == nil && r.Players == nil {
		return nil, fmt.Errorf("%w: JSON without Basic, Server, Universe or Players (the plugin's permissions must let anonymous readers see one)", wire.ErrMalformed)
	}
	res := &protocols.Result{}
	count := func(n *int64) (protocols.Count, bool) {
		if n == nil || *n < 0 {
			return protocols.Count{}, false
		}
		return protocols.Known(*n), true
	}
	if b := r.Basic; b != nil {
		res.Name, res.Version = b.Name, b.Version
		res.MaxPlayers, _ = count(b.MaxPlayers)
		res.Players, _ = count(b.CurrentPlayers)
		if b.Address != "" {
			res.Info = append(res.Info, protocols.KV{Key: "address", Value: b.Address})
		}
	}
	if s := r.Server; s != nil {
		if s.Name != "" || res.Name == "" {
			res.Name, res.Version = s.Name, s.Version
		}
		if c, ok := count(s.MaxPlayers); ok {
			res.MaxPlayers = c
		}
	}
	if u := r.Universe; u != nil {
		res.Map = u.DefaultWorld
		if c, ok := count(u.CurrentPlayers); ok {
			res.Players = c
		}
	}
	if p := r.Players; p != nil {
		if !res.Players.Known {
			res.Players = protocols.Known(int64(p.n)) // no count given: the list is every player
		}
		res.Info = append(res.Info, protocols.KV{Key: "listed_players", Value: strconv.Itoa(p.n)})
		if players {
			res.PlayerList = make([]protocols.Player, 0, len(p.names))
			for _, n := range p.names {
				res.PlayerList = append(res.PlayerList, protocols.Player{Name: n})
			}
		}
	}
	return res, nil
}

// nitrado is the Nitrado flavour: one HTTP GET. The plugin answers 401/403
// when its permissions keep anonymous readers out. A failure once the plugin
// answered (its status, its JSON) is its own, not some other server's.
func (q *querier) nitrado(ctx context.Context, addr netip.AddrPort, tr *wire.Trace) (*protocols.Result, error) {
	hdr := http.Header{"Accept": []string{nitradoAccept}}
	resp, err := wire.DoHTTP(ctx, addr, wire.HTTPRequest{Path: nitradoPath, Header: hdr, MaxBody: maxNitradoBody}, tr)
	if err != nil {
		return nil, err
	}
	var r nitradoReply
	if err := wire.DecodeJSON(resp, &r); err != nil {
		if resp.Status == http.StatusUnauthorized || resp.Status == http.StatusForbidden {
			return nil, ownAnswer{fmt.Errorf("%w: the plugin's permissions must let anonymous readers query", err)}
		}
		return nil, err
	}
	res, err := r.result(q.players)
	if err != nil {
		return nil, ownAnswer{err}
	}
	return res, nil
}
