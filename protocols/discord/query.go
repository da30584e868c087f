package discord

import (
	"context"
	"fmt"
	"net/http"

	"github.com/gameserver-exporter/gameserver_exporter/protocols"
	"github.com/gameserver-exporter/gameserver_exporter/protocols/wire"
)

type querier struct {
	guild   string
	players bool
	api     protocols.API // defaultBase; a test's fake in tests
}

// maxBody caps the answer: 100 members and a few hundred channels are some
// 60 KiB.
const maxBody = 256 << 10

// Query fetches the widget in one phase, info. The target is not used: the
// request goes to Discord.
//
// Not a protocols.HTTPExchange: its URL is the API's, made per probe, and Discord's refusals carry codes of their own.
func (q *querier) Query(ctx context.Context, t protocols.Target, tr *wire.Trace) (*protocols.Result, error) {
	return protocols.InfoPhase(ctx, t, tr, q.widget)
}

func (q *querier) widget(ctx context.Context, t protocols.Target, tr *wire.Trace) (*protocols.Result, error) {
	addr := t.Addr
	if q.guild == "" {
		return nil, fmt.Errorf("%w: the module names no guild (discord: {guild_id: \"...\"})", wire.ErrServer)
	}
	body, err := q.api.JSON(ctx, addr, tr, "discord widget", "/api/guilds/"+q.guild+"/widget.json", wire.HTTPRequest{MaxBody: maxBody},
		func(resp *wire.HTTPResponse) error { return statusError(resp, q.guild) })
	if err != nil {
		return nil, err
	}
	w, err := decode(body)
	if err != nil {
		return nil, err
	}
	if w.ID != q.guild {
		return nil, fmt.Errorf("%w: asked for guild %s, the widget is guild %q's", wire.ErrMismatch, q.guild, w.ID)
	}
	if len(w.Members) > maxMembers {
		tr.Logf("the widget lists %d members: the first %d are kept", len(w.Members), maxMembers)
	}
	return w.result(q.players), nil
}

// statusError names Discord's refusals: an unknown guild (404, code 10004), a
// widget the guild's admins left off (403, code 50004), rate limiting (429).
// Only Discord's numeric code is quoted, never its message.
func statusError(resp *wire.HTTPResponse, guild string) error {
	code := apiCode(resp.Body)
	switch {
	case code == codeWidgetDisabled:
		return fmt.Errorf("%w: guild %s's widget is disabled (HTTP %d, code %d): an admin turns on Server Settings > Widget > Enable Server Widget", wire.ErrServer, guild, resp.Status, code)
	case code == codeUnknownGuild || resp.Status == http.StatusNotFound:
		return fmt.Errorf("%w: Discord knows no guild %s (HTTP %d, code %d): check guild_id", wire.ErrServer, guild, resp.Status, code)
	case resp.Status == http.StatusTooManyRequests:
		return fmt.Errorf("%w: Discord rate-limits the widget requests (HTTP 429): probe it less often", wire.ErrServer)
	case code != 0:
		return fmt.Errorf("%w: Discord widget: HTTP %d (code %d)", wire.ErrServer, resp.Status, code)
	}
	return fmt.Errorf("%w: Discord widget: HTTP %d %s", wire.ErrServer, resp.Status, http.StatusText(resp.Status))
}
