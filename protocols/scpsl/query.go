package scpsl

import (
	"bytes"
	"context"
	"fmt"
	"net/http"
	"net/url"
	"strconv"

	"github.com/gameserver-exporter/gameserver_exporter/protocols"
	"github.com/gameserver-exporter/gameserver_exporter/protocols/wire"
)

type querier struct {
	account  string
	key      protocols.Secret
	serverID int64
	players  bool
	api      protocols.API // defaultBase; a test's fake in tests
}

// String and GoString keep the key out of %v and %#v.
func (q *querier) String() string {
	return fmt.Sprintf("scpsl{account %s, server %d}", q.account, q.serverID)
}

func (q *querier) GoString() string { return q.String() }

// maxBody caps the answer: an account's few servers, each with up to a
// hundred players listed, are some tens of KiB.
const maxBody = 256 << 10

// Query fetches the account's servers in one phase, info, and picks the
// target's. The target's address is not contacted: the request goes to
// Northwood.
//
// Not a protocols.HTTPExchange: its URL is the API's, made per probe, and the answer lists the account's servers to pick the target from.
func (q *querier) Query(ctx context.Context, t protocols.Target, tr *wire.Trace) (*protocols.Result, error) {
	return protocols.InfoPhase(ctx, t, tr, q.serverInfo)
}

func (q *querier) serverInfo(ctx context.Context, t protocols.Target, tr *wire.Trace) (*protocols.Result, error) {
	addr := t.Addr
	if q.account == "" || q.key == "" {
		return nil, fmt.Errorf("%w: the module names no account (scpsl: {account_id: \"...\", api_key_file: ...})", wire.ErrServer)
	}
	body, err := q.api.JSON(ctx, addr, tr, "scpsl serverinfo", "/serverinfo.php?"+q.params().Encode(),
		wire.HTTPRequest{SecretQuery: true /* key= */, MaxBody: maxBody, TraceBody: q.maskKey},
		func(resp *wire.HTTPResponse) error { return statusError(resp, q.key) })
	if err != nil {
		return nil, err
	}
	a, err := decode(body)
	if err != nil {
		return nil, err
	}
	if !*a.Success {
		return nil, apiError(a, 0, q.key)
	}
	s, err := a.pick(q.serverID, addr.Port())
	if err != nil {
		return nil, err
	}
	return s.result(q.players)
}

// maskKey is what the trace keeps of an answer: the key masked, should
// Northwood ever echo it.
func (q *querier) maskKey(body []byte) []byte {
	if q.key == "" {
		return body
	}
	return bytes.ReplaceAll(body, []byte(q.key.Reveal()), []byte("<secret>"))
}

// params are gamedig's, less what is not read (lo, pastebin, flags); the
// player list only when the module asks for players.
func (q *querier) params() url.Values {
	v := url.Values{
		"id":      {q.account},
		"key":     {q.key.Reveal()},
		"players": {"true"},
		"info":    {"true"},
		"version": {"true"},
		"online":  {"true"},
	}
	if q.players {
		v.Set("list", "true")
		v.Set("nicknames", "true")
	}
	return v
}

// statusError names an HTTP refusal. Northwood answers errors with
// {"Success": false, "Error": "..."} too; a body that is not that is not
// quoted.
func statusError(resp *wire.HTTPResponse, key protocols.Secret) error {
	if a, err := decode(resp.Body); err == nil && !*a.Success {
		return apiError(a, resp.Status, key)
	}
	if resp.Status == http.StatusTooManyRequests {
		return fmt.Errorf("%w: Northwood rate-limits serverinfo (HTTP 429): probe it less often", wire.ErrServer)
	}
	return fmt.Errorf("%w: Northwood serverinfo: HTTP %d %s", wire.ErrServer, resp.Status, http.StatusText(resp.Status))
}

// apiError says why Northwood refused, quoting its Error text with the key
// (should it ever be echoed) masked.
func apiError(a *answerJSON, status int, key protocols.Secret) error {
	msg := errorText(a.Error, key)
	where := "Northwood serverinfo"
	if status != 0 {
		where += " (HTTP " + strconv.Itoa(status) + ")"
	}
	if status == http.StatusTooManyRequests || a.Cooldown != nil && *a.Cooldown > 0 {
		cd := ""
		if a.Cooldown != nil {
			cd = fmt.Sprintf(", cooldown %d s", *a.Cooldown)
		}
		return fmt.Errorf("%w: %s rate-limits the account%s: probe it less often (%q)", wire.ErrServer, where, cd, msg)
	}
	return fmt.Errorf("%w: %s refused: %q (check account_id and the API key)", wire.ErrServer, where, msg)
}
