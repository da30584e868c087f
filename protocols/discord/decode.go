package discord

import (
	"encoding/json"
	"fmt"
	"strconv"

	"github.com/gameserver-exporter/gameserver_exporter/protocols"
	"github.com/gameserver-exporter/gameserver_exporter/protocols/wire"
)

// Discord's JSON error codes (developer docs, Opcodes and Status Codes).
const (
	codeUnknownGuild   = 10004
	codeWidgetDisabled = 50004
)

// maxMembers: Discord lists at most 100 members; more is kept to that.
const maxMembers = 100

// widgetJSON is the Guild Widget object, the fields read.
type widgetJSON struct {
	ID            string       `json:"id"`
	Name          *string      `json:"name"`
	InstantInvite *string      `json:"instant_invite"`
	Channels      []struct{}   `json:"channels"`
	Members       []memberJSON `json:"members"`
	PresenceCount *int64       `json:"presence_count"`
}

// memberJSON is a widget member: an anonymised id, the username, a status.
type memberJSON struct {
	Username string `json:"username"`
	Status   string `json:"status"`
}

// decode reads a widget answer. The name and presence_count must be there: an
// object without them is not a widget.
func decode(body []byte) (*widgetJSON, error) {
	var w widgetJSON
	if err := json.Unmarshal(body, &w); err != nil {
		return nil, fmt.Errorf("%w: widget: %v", wire.ErrMalformed, err)
	}
	switch {
	case w.Name == nil:
		return nil, fmt.Errorf("%w: widget without a name", wire.ErrMalformed)
	case w.PresenceCount == nil:
		return nil, fmt.Errorf("%w: widget without presence_count", wire.ErrMalformed)
	case *w.PresenceCount < 0:
		return nil, fmt.Errorf("%w: presence_count %d", wire.ErrMalformed, *w.PresenceCount)
	}
	return &w, nil
}

// result maps the widget: name, players online; the member names when the
// module asks for players. There is no maximum (a guild holds up to 25
// million members; none of them is a slot) and no bot mark.
func (w *widgetJSON) result(players bool) *protocols.Result {
	res := &protocols.Result{
		Name:    *w.Name,
		Players: protocols.Known(*w.PresenceCount),
	}
	members := w.Members[:min(len(w.Members), maxMembers)]
	if players {
		res.PlayerList = make([]protocols.Player, len(members))
		for i, m := range members {
			res.PlayerList[i] = protocols.Player{Name: m.Username}
		}
	}
	res.Info = []protocols.KV{
		{Key: "guild_id", Value: w.ID},
		{Key: "channels", Value: strconv.Itoa(len(w.Channels))},
		{Key: "members_listed", Value: strconv.Itoa(len(w.Members))},
	}
	if w.InstantInvite != nil && *w.InstantInvite != "" {
		res.Info = append(res.Info, protocols.KV{Key: "instant_invite", Value: *w.InstantInvite})
	}
	return res
}

// apiCode is the numeric code of a Discord error body ({"message": ...,
// "code": 50004}), 0 when there is none.
func apiCode(body []byte) int {
	var e struct {
		Code int `json:"code"`
	}
	if json.Unmarshal(body, &e) != nil || e.Code < 0 {
		return 0
	}
	return e.Code
}
