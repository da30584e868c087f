package master

import (
	"context"
	"encoding/json"
	"io"

	"github.com/gameserver-exporter/gameserver_exporter/protocols/wire"
)

// RAGE Multiplayer's v2 master list, as gamedig's protocols/ragemp.js reads it:
// a JSON array of entries {id, servers: [{id, name, players: {amount, max}}]}.
// An entry's id is a server's "ip:port" (or "name:port"), and its first server
// holds that server's status. Some entries group several servers: each nested
// server has its own id, found by address and port as gamedig finds it. So the
// list yields the entry's id with its first server's status, then every nested
// server whose id is another address with its own.

const defaultRageMPURL = "https://cdn.rage.mp/master/v2/"

// maxGroup bounds the servers read from one entry: a group is a community's
// handful of servers, and the collector's cap bounds the list as a whole.
const maxGroup = 1024

type ragemp struct{ httpList }

func newRageMP(s Source) (Lister, error) {
	if err := plainSource(s); err != nil {
		return nil, err
	}
	h, err := newHTTPList(s, defaultRageMPURL)
	if err != nil {
		return nil, err
	}
	return &ragemp{h}, nil
}

func (g *ragemp) List(ctx context.Context, tr *wire.Trace) (*List, error) {
	return g.fetch(ctx, tr, decodeRageMP)
}

// rageEntry is one element of the list; servers stay raw until counted, so a
// huge group costs its bytes once, not a decoded copy.
type rageEntry struct {
	ID      json.RawMessage   `json:"id"`
	Servers []json.RawMessage `json:"servers"`
}

type rageServer struct {
	ID      json.RawMessage `json:"id"`
	Name    json.RawMessage `json:"name"`
	Players struct {
		Amount json.RawMessage `json:"amount"`
		Max    json.RawMessage `json:"max"`
	} `json:"players"`
}

// decodeRageMP reads the v2 list into c, entry by entry, until c is full.
func decodeRageMP(r io.Reader, c *collector) error {
	return eachElement(r, nil, c, func(raw []byte) bool {
		var e rageEntry
		if json.Unmarshal(raw, &e) != nil {
			c.skip(SkipMalformed)
			return false
		}
		return rageEntries(e, c)
	})
}

// rageEntries adds an entry's servers to c and reports whether c is full.
func rageEntries(e rageEntry, c *collector) bool {
	servers := e.Servers
	if len(servers) > maxGroup {
		servers = servers[:maxGroup]
	}
	first := rageServer{}
	if len(servers) > 0 {
		json.Unmarshal(servers[0], &first) // a broken first server leaves the entry bare
	}
	// add adds a server; grouped says a group's own id may name no server.
	add := func(id json.RawMessage, s rageServer, grouped bool) bool {
		en := Entry{Name: str(s.Name), Players: count(s.Players.Amount), Max: count(s.Players.Max)}
		if !place(&en, str(id), -1, 0) {
			if !grouped {
				c.skip(SkipNoAddress)
			}
			return false
		}
		return !c.add(en) && c.full()
	}
	top := str(e.ID)
	if add(e.ID, first, len(servers) > 1) {
		return true
	}
	for i, raw := range servers {
		var s rageServer
		if i == 0 {
			s = first
		} else if json.Unmarshal(raw, &s) != nil {
			c.skip(SkipMalformed)
			continue
		}
		if id := str(s.ID); id == "" || id == top {
			continue // the entry's own server, added above
		}
		if add(s.ID, s, false) {
			return true
		}
	}
	return false
}
