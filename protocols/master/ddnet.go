package master

import (
	"context"
	"encoding/json"
	"io"
	"net/netip"
	"strings"

	"github.com/gameserver-exporter/gameserver_exporter/protocols"
	"github.com/gameserver-exporter/gameserver_exporter/protocols/wire"
)

// DDNet's HTTP master (ddnet/ddnet, src/mastersrv): servers.json is
// {"servers": [...]}, each server {"addresses": ["tw-0.6+udp://1.2.3.4:8303",
// ...], "location": "eu:de", "info": {"name", "game_type", "version",
// "passworded", "max_clients", "map": {"name"}, "clients": [...]}}.

// DefaultDDNetURL is DDNet's public master.
const DefaultDDNetURL = "https://master1.ddnet.org/ddnet/15/servers.json"

type ddnet struct{ httpList }

func newDDNet(s Source) (Lister, error) {
	if s.Query != "" {
		return nil, errNoQuery(s.Type)
	}
	h, err := newHTTPList(s, DefaultDDNetURL)
	if err != nil {
		return nil, err
	}
	return &ddnet{h}, nil
}

func (d *ddnet) List(ctx context.Context, tr *wire.Trace) (*List, error) {
	return d.fetch(ctx, tr, decodeDDNet)
}

type ddnetServer struct {
	Addresses []string `json:"addresses"`
	Location  string   `json:"location"`
	Info      struct {
		Name       string `json:"name"`
		GameType   string `json:"game_type"`
		Version    string `json:"version"`
		Passworded *bool  `json:"passworded"`
		MaxClients *int64 `json:"max_clients"`
		Map        struct {
			Name string `json:"name"`
		} `json:"map"`
		// Only counted: an empty struct per client keeps nothing of it.
		Clients *[]struct{} `json:"clients"`
	} `json:"info"`
}

// decodeDDNet reads servers.json into c, server by server, until c is full.
func decodeDDNet(r io.Reader, c *collector) error {
	return eachElement(r, []string{"servers"}, c, func(raw []byte) bool {
		var s ddnetServer
		if json.Unmarshal(raw, &s) != nil {
			c.skip(SkipMalformed)
			return false
		}
		e := Entry{Addr: ddnetAddr(s.Addresses), Name: s.Info.Name, Map: s.Info.Map.Name, Game: s.Info.GameType, Version: s.Info.Version}
		if _, cc, ok := strings.Cut(s.Location, ":"); ok {
			e.Country = country(cc)
		}
		if s.Info.Clients != nil {
			e.Players = protocols.Known(int64(len(*s.Info.Clients)))
		}
		if s.Info.MaxClients != nil && *s.Info.MaxClients >= 0 {
			e.Max = protocols.Known(*s.Info.MaxClients)
		}
		if s.Info.Passworded != nil {
			e.Password = protocols.FlagOf(*s.Info.Passworded)
		}
		return !c.add(e) && c.full()
	})
}

// ddnetAddr picks the address the teeworlds protocol queries: the first
// tw-0.6 one (the 0.6 info query; DDNet servers answer it), else the first of
// any scheme.
func ddnetAddr(addrs []string) netip.AddrPort {
	var first netip.AddrPort
	for _, a := range addrs {
		scheme, rest, ok := strings.Cut(a, "://")
		if !ok {
			continue
		}
		ap, err := netip.ParseAddrPort(rest)
		if err != nil {
			continue
		}
		if strings.HasPrefix(scheme, "tw-0.6+") {
			return ap
		}
		if !first.IsValid() {
			first = ap
		}
	}
	return first
}
