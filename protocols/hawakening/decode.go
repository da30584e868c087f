package hawakening

import (
	"encoding/json"
	"fmt"
	"net/http"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/gameserver-exporter/gameserver_exporter/protocols"
	"github.com/gameserver-exporter/gameserver_exporter/protocols/wire"
)

// Caps on what the backend sends.
const (
	maxListings = 2000
	maxUsers    = 1000 // a HAWKEN match holds a few dozen pilots
	maxGrantLen = 4096
	maxMsgText  = 200
)

// The backend's messages gamedig matches (compared case-insensitively).
const (
	msgLoggedIn        = "user logged in"
	msgUserNotFound    = "access grant not issued: user not found"
	msgWrongPassword   = "access grant not issued: incorrect password"
	msgIncompleteLogin = "access grant not issued: unrecognized options for login request"
	msgListingsFound   = "listings found"
)

// envelope is every Meteor answer: a status code of its own, a message, the
// result.
type envelope struct {
	Status  *int            `json:"Status"`
	Message string          `json:"Message"`
	Result  json.RawMessage `json:"Result"`
}

// listingJSON is one server of the listing, the fields read (gamedig's
// MasterServerServerListingSchema).
type listingJSON struct {
	GUID          string   `json:"Guid"`
	ServerName    string   `json:"ServerName"`
	Map           string   `json:"Map"`
	GameType      string   `json:"GameType"`
	GameVersion   string   `json:"GameVersion"`
	Region        string   `json:"Region"`
	MaxUsers      *int64   `json:"MaxUsers"`
	Users         []string `json:"Users"`
	DeveloperData struct {
		PasswordHash      string `json:"PasswordHash"`
		MatchState        string `json:"MatchState"`
		AveragePilotLevel string `json:"AveragePilotLevel"`
	} `json:"DeveloperData"`
}

type listings []listingJSON

// decodeEnvelope reads an answer. A 2xx answer must be a JSON envelope; an
// error status may come with one or with anything else (a proxy's page), in
// which case the envelope is empty and the HTTP status speaks.
func decodeEnvelope(resp *wire.HTTPResponse) (*envelope, error) {
	var env envelope
	if resp.Status < 200 || resp.Status > 299 {
		if json.Unmarshal(resp.Body, &env) != nil {
			return &envelope{}, nil
		}
		return &env, nil
	}
	body, err := wire.JSONBody(resp)
	if err != nil {
		return nil, err
	}
	return parseEnvelope(body)
}

func parseEnvelope(body []byte) (*envelope, error) {
	var env envelope
	if err := json.Unmarshal(body, &env); err != nil {
		return nil, fmt.Errorf("%w: answer: %v", wire.ErrMalformed, err)
	}
	if env.Status == nil && env.Message == "" && env.Result == nil {
		return nil, fmt.Errorf("%w: answer without Status, Message or Result", wire.ErrMalformed)
	}
	return &env, nil
}

// statusOf is the envelope's Status, or the HTTP status when it has none.
func statusOf(env *envelope, httpStatus int) int {
	if env.Status != nil {
		return *env.Status
	}
	return httpStatus
}

// refused says the backend refused the grant.
func refused(env *envelope, httpStatus int) bool {
	s := statusOf(env, httpStatus)
	return s == http.StatusUnauthorized || s == http.StatusForbidden || httpStatus == http.StatusUnauthorized || httpStatus == http.StatusForbidden
}

func isMsg(env *envelope, msg string) bool { return strings.EqualFold(env.Message, msg) }

func rateLimited(env *envelope, httpStatus int) bool {
	return httpStatus == http.StatusTooManyRequests || statusOf(env, httpStatus) == http.StatusTooManyRequests
}

// grantOf reads the sign-in answer: the grant, or why there is none (the
// password never quoted).
func grantOf(env *envelope, httpStatus int, user string, password protocols.Secret) (string, error) {
	switch {
	case isMsg(env, msgUserNotFound):
		return "", fmt.Errorf("%w: Hawakening knows no user %q: check username", wire.ErrServer, user)
	case isMsg(env, msgWrongPassword):
		return "", fmt.Errorf("%w: Hawakening refused the password of user %q: check password_file", wire.ErrServer, user)
	case isMsg(env, msgIncompleteLogin):
		return "", fmt.Errorf("%w: Hawakening refused the sign-in request as lacking a user name or password", wire.ErrServer)
	case rateLimited(env, httpStatus):
		return "", fmt.Errorf("%w: Hawakening rate-limits sign-ins (HTTP %d): probe less often", wire.ErrServer, httpStatus)
	case statusOf(env, httpStatus) != http.StatusOK || httpStatus < 200 || httpStatus > 299:
		return "", fmt.Errorf("%w: Hawakening sign-in: HTTP %d, Status %d%s", wire.ErrServer, httpStatus, statusOf(env, httpStatus), quoteMsg(env, password))
	case !isMsg(env, msgLoggedIn):
		return "", fmt.Errorf("%w: Hawakening sign-in: unexpected message%s", wire.ErrServer, quoteMsg(env, password))
	}
	var g string
	if json.Unmarshal(env.Result, &g) != nil || g == "" {
		return "", fmt.Errorf("%w: sign-in answer without an access grant", wire.ErrMalformed)
	}
	if len(g) > maxGrantLen || strings.ContainsAny(g, "\r\n\x00") {
		return "", fmt.Errorf("%w: sign-in answer's access grant is no header value (%d bytes)", wire.ErrMalformed, len(g))
	}
	return g, nil
}

// listingsOf reads the listing answer.
func listingsOf(env *envelope, httpStatus int) (listings, error) {
	s := statusOf(env, httpStatus)
	switch {
	case rateLimited(env, httpStatus):
		return nil, fmt.Errorf("%w: Hawakening rate-limits the server listing (HTTP %d): probe less often", wire.ErrServer, httpStatus)
	case refused(env, httpStatus):
		return nil, fmt.Errorf("%w: Hawakening refused a fresh access grant for the server listing (HTTP %d, Status %d)", wire.ErrServer, httpStatus, s)
	case s != http.StatusOK || httpStatus < 200 || httpStatus > 299:
		return nil, fmt.Errorf("%w: Hawakening server listing: HTTP %d, Status %d%s", wire.ErrServer, httpStatus, s, quoteMsg(env, ""))
	case !isMsg(env, msgListingsFound):
		return nil, fmt.Errorf("%w: Hawakening server listing: unexpected message%s", wire.ErrServer, quoteMsg(env, ""))
	}
	var l listings
	if err := json.Unmarshal(env.Result, &l); err != nil || env.Result == nil {
		return nil, fmt.Errorf("%w: server listing's Result is no list of servers", wire.ErrMalformed)
	}
	if len(l) > maxListings {
		return nil, fmt.Errorf("%w: %d servers listed, at most %d read", wire.ErrTooLarge, len(l), maxListings)
	}
	return l, nil
}

// result maps the server whose Guid is guid (lower case).
func (l listings) result(guid string) (*protocols.Result, error) {
	for i := range l {
		if strings.EqualFold(l[i].GUID, guid) {
			return l[i].result()
		}
	}
	return nil, fmt.Errorf("%w: the Hawakening listing holds no server %s (%d servers): it is down, or server_guid is wrong", wire.ErrNotListed, guid, len(l))
}

func (s *listingJSON) result() (*protocols.Result, error) {
	switch {
	case s.MaxUsers != nil && (*s.MaxUsers < 0 || *s.MaxUsers > maxUsers):
		return nil, fmt.Errorf("%w: server %s MaxUsers %d out of 0..%d", wire.ErrMalformed, s.GUID, *s.MaxUsers, maxUsers)
	case len(s.Users) > maxUsers:
		return nil, fmt.Errorf("%w: server %s lists %d users, at most %d", wire.ErrTooLarge, s.GUID, len(s.Users), maxUsers)
	}
	res := &protocols.Result{
		Name:     utf(s.ServerName),
		Map:      utf(s.Map),
		Version:  utf(s.GameVersion),
		Players:  protocols.Known(int64(len(s.Users))),
		Password: protocols.FlagOf(s.DeveloperData.PasswordHash != ""),
		Info: []protocols.KV{
			{Key: "guid", Value: utf(s.GUID)},
			{Key: "users_listed", Value: strconv.Itoa(len(s.Users))},
		},
	}
	if s.MaxUsers != nil {
		res.MaxPlayers = protocols.Known(*s.MaxUsers)
	}
	for _, kv := range []protocols.KV{
		{Key: "region", Value: s.Region}, {Key: "game_type", Value: s.GameType},
		{Key: "match_state", Value: s.DeveloperData.MatchState}, {Key: "average_pilot_level", Value: s.DeveloperData.AveragePilotLevel},
	} {
		if kv.Value != "" {
			res.Info = append(res.Info, protocols.KV{Key: kv.Key, Value: utf(kv.Value)})
		}
	}
	return res, nil
}

func utf(s string) string { return wire.UTF8([]byte(s)) }

// quoteMsg is the envelope's Message fit to quote: the password masked,
// capped; "" when there is none.
func quoteMsg(env *envelope, password protocols.Secret) string {
	m := env.Message
	if m == "" {
		return ""
	}
	if p := password.Reveal(); p != "" {
		m = strings.ReplaceAll(m, p, "<secret>")
	}
	if len(m) > maxMsgText {
		m = m[:maxMsgText]
		for len(m) > 0 && !utf8.ValidString(m) {
			m = m[:len(m)-1]
		}
		m += "..."
	}
	return fmt.Sprintf(" (%q)", m)
}
