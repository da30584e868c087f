package master

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/netip"
	"net/url"
	"strconv"

	"github.com/gameserver-exporter/gameserver_exporter/protocols"
	"github.com/gameserver-exporter/gameserver_exporter/protocols/wire"
)

// The Steam Web API's IGameServersService/GetServerList (Steamworks Web API
// reference): GET with `filter` (the master query's filter string) and `limit`,
// the publisher or user key in the x-webapi-key header (never in the URL, which
// traces and errors may show). The reply is {"response": {"servers": [{"addr":
// "ip:queryport", "gameport", "name", "map", "gamedir", "version", "players",
// "max_players", "bots", ...}]}}: players counts bots too, as A2S_INFO does.

// DefaultSteamWebURL is the Steam Web API's server list.
const DefaultSteamWebURL = "https://api.steampowered.com/IGameServersService/GetServerList/v1/"

type steamWeb struct {
	httpList
	key    protocols.Secret
	filter string
}

// String keeps the key out of %v.
func (s *steamWeb) String() string { return "steam web API list " + RedactURL(s.url) }

func newSteamWeb(s Source) (Lister, error) {
	if s.Query != "" && s.Query[0] != '\\' {
		return nil, fmt.Errorf(`query %q: a Steam filter starts with a backslash (\appid\440)`, s.Query)
	}
	if s.Region != "" {
		return nil, fmt.Errorf("region is for Valve's master (no key_file); filter the Web API with \\region\\N in the query")
	}
	if s.Address != "" {
		return nil, fmt.Errorf("with a key_file, type steam asks the Web API: set url, not address")
	}
	h, err := newHTTPList(s, DefaultSteamWebURL)
	if err != nil {
		return nil, err
	}
	u, _ := url.Parse(h.url)
	q := u.Query()
	q.Set("filter", s.Query)
	q.Set("limit", strconv.Itoa(s.MaxEntries+1)) // one more: says whether the cap cut the list
	u.RawQuery = q.Encode()
	h.url = u.String()
	return &steamWeb{httpList: h, key: s.Key, filter: s.Query}, nil
}

func (s *steamWeb) List(ctx context.Context, tr *wire.Trace) (*List, error) {
	return s.fetchWith(ctx, tr, map[string][]string{"X-Webapi-Key": {s.key.Reveal()}}, decodeSteamWeb)
}

type steamWebServer struct {
	Addr       string `json:"addr"`
	Name       string `json:"name"`
	Map        string `json:"map"`
	Gamedir    string `json:"gamedir"`
	Version    string `json:"version"`
	Players    *int64 `json:"players"`
	MaxPlayers *int64 `json:"max_players"`
	Bots       *int64 `json:"bots"`
}

// decodeSteamWeb reads GetServerList's reply into c, server by server.
func decodeSteamWeb(r io.Reader, c *collector) error {
	return eachElement(r, []string{"response", "servers"}, c, func(raw []byte) bool {
		var s steamWebServer
		if json.Unmarshal(raw, &s) != nil {
			c.skip(SkipMalformed)
			return false
		}
		addr, err := netip.ParseAddrPort(s.Addr)
		if err != nil {
			c.skip(SkipNoAddress)
			return false
		}
		e := Entry{Addr: addr, Name: s.Name, Map: s.Map, Game: s.Gamedir, Version: s.Version}
		if s.Players != nil && *s.Players >= 0 {
			humans := *s.Players
			if s.Bots != nil && *s.Bots >= 0 && *s.Bots <= humans {
				humans -= *s.Bots
			}
			e.Players = protocols.Known(humans)
		}
		if s.MaxPlayers != nil && *s.MaxPlayers >= 0 {
			e.Max = protocols.Known(*s.MaxPlayers)
		}
		return !c.add(e) && c.full()
	})
}
