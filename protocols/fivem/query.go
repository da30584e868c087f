package fivem

import (
	"context"
	"crypto/rand"
	"errors"
	"fmt"
	"net/http"
	"net/netip"

	"github.com/gameserver-exporter/gameserver_exporter/protocols"
	"github.com/gameserver-exporter/gameserver_exporter/protocols/internal/idtech"
	"github.com/gameserver-exporter/gameserver_exporter/protocols/wire"
)

type querier struct {
	players, rules, version bool
	retries                 int
}

// Body caps of the HTTP endpoints: players.json holds a few hundred bytes per
// player (identifiers included), info.json a 96x96 PNG icon in base64 and the
// resource names.
const (
	maxPlayersBody = 1 << 20
	maxInfoBody    = 512 << 10
)

// Query asks for the info over UDP, then over HTTP on the same port the player
// list (as the module wants it) and info.json: the server's build (phase
// "version", unless `version: false`), and its convars with rules (phase "rules"
// then). An HTTP failure is
// a phase error: the server did answer its info query.
//
// Not a protocols.UDPExchange: the UDP info is followed by HTTP requests.
func (q *querier) Query(ctx context.Context, t protocols.Target, tr *wire.Trace) (*protocols.Result, error) {
	addr := t.Addr
	// 26 base32 characters: no space, newline or backslash. The server reads
	// the challenge up to a space or newline and echoes it as the `challenge` key.
	challenge := rand.Text()
	conn, err := protocols.DialUDP(ctx, t, tr, q.retries)
	if err != nil {
		return nil, err
	}
	// wire.Exchange and not a UDPExchange's Ask: its sort closes over the
	// challenge without escaping, where a per-probe Check would be allocated.
	p := tr.Begin("info")
	kvs, err := wire.Exchange(ctx, conn, idtech.Q3Request("getinfo", challenge, ""), func(b []byte) ([]protocols.KV, error, error) {
		kvs, err := decodeInfo(b)
		switch {
		case errors.Is(err, errNotInfo):
			return nil, err, nil
		case err != nil:
			return nil, nil, err
		}
		// FXServer always echoes; a different token is a late or spoofed reply.
		c, ok := protocols.Lookup(kvs, "challenge")
		if err := idtech.Echoed(c, ok, challenge); err != nil {
			return nil, err, nil
		}
		return kvs, nil, nil
	})
	conn.Close()
	tr.End(p, err)
	if err != nil {
		return nil, err
	}
	res := infoResult(kvs)

	if q.players {
		if list, ok := protocols.Phase(&res.PhaseErrors, tr, "players", func() ([]protocols.Player, error) { return fetchPlayers(ctx, addr, tr) }); ok {
			res.PlayerList = list
		}
	}
	// info.json for the server's build, its convars only with rules.
	if !q.version {
		return res, nil
	}
	phase := "version"
	if q.rules {
		phase = "rules"
	}
	var rules []protocols.KV
	version, ok := protocols.Phase(&res.PhaseErrors, tr, phase, func() (version string, err error) {
		version, rules, err = fetchServerInfo(ctx, addr, tr)
		return version, err
	})
	if !ok {
		return res, nil
	}
	res.Version = version
	if q.rules {
		res.Rules = rules
	}
	return res, nil
}

// getJSON fetches one of the server's HTTP endpoints on the query's address and
// checks it answered JSON: a non-2xx status is the server's error (429 when its
// rate limit refuses us), an HTML page (another web server on the port) is
// malformed, named by its type, never quoted.
func getJSON(ctx context.Context, addr netip.AddrPort, req wire.HTTPRequest, tr *wire.Trace) ([]byte, error) {
	req.Header = http.Header{"Accept": {"application/json"}}
	resp, err := wire.DoHTTP(ctx, addr, req, tr)
	if err == nil {
		var body []byte
		if body, err = wire.JSONBody(resp); err == nil {
			return body, nil
		}
	}
	return nil, fmt.Errorf("%s: %w", req.Path, err)
}

// fetchPlayers reads players.json. Its body is kept out of the trace: besides
// names and pings it lists every player's identifiers, and their IP addresses
// when the server has endpoint privacy off.
func fetchPlayers(ctx context.Context, addr netip.AddrPort, tr *wire.Trace) ([]protocols.Player, error) {
	body, err := getJSON(ctx, addr, wire.HTTPRequest{
		Path:      "/players.json",
		MaxBody:   maxPlayersBody,
		TraceBody: wire.Withhold("players.json holds player identifiers"),
	}, tr)
	if err != nil {
		return nil, err
	}
	list, dropped, err := decodePlayers(body)
	if dropped > 0 {
		tr.Logf("players.json: %d players past the cap of %d left out", dropped, maxPlayers)
	}
	return list, err
}

func fetchServerInfo(ctx context.Context, addr netip.AddrPort, tr *wire.Trace) (string, []protocols.KV, error) {
	body, err := getJSON(ctx, addr, wire.HTTPRequest{Path: "/info.json", MaxBody: maxInfoBody}, tr)
	if err != nil {
		return "", nil, err
	}
	return decodeServerInfo(body)
}
