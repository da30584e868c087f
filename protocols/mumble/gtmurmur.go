package mumble

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strconv"

	"github.com/gameserver-exporter/gameserver_exporter/protocols"
	"github.com/gameserver-exporter/gameserver_exporter/protocols/wire"
)

// gtQuerier reads the GTmurmur plugin: it sends "json\n" and the plugin answers
// with one JSON document in the Channel Viewer Protocol's shape (the Mumble
// wiki's "Channel Viewer Protocol"): the server's name and its root channel,
// each channel holding its users and sub-channels. GTmurmur adds x_gtmurmur_*
// keys, among them the voice port (x_gtmurmur_connectport) and the user limit
// (x_gtmurmur_max_users), read when present.
type gtQuerier struct {
	// queryPort is the plugin's TCP port; 0 (tests only) means the target's own.
	queryPort uint16
	players   bool
}

// Bounds on the document.
const (
	maxCVP      = 1 << 20 // bytes: a server of a few hundred users is well under
	maxChannels = 4096
	maxDepth    = 64
	maxUsers    = 4096
)

type cvpUser struct {
	Name       string   `json:"name"`
	OnlineSecs *float64 `json:"onlinesecs"`
}

type cvpChannel struct {
	Name     string       `json:"name"`
	Channels []cvpChannel `json:"channels"`
	Users    []cvpUser    `json:"users"`
}

type cvpServer struct {
	Name        string      `json:"name"`
	Root        *cvpChannel `json:"root"`
	ConnectURL  string      `json:"x_connecturl"`
	Uptime      *float64    `json:"x_uptime"`
	ConnectPort *float64    `json:"x_gtmurmur_connectport"`
	MaxUsers    *float64    `json:"x_gtmurmur_max_users"`
}

// Query connects to the plugin on the target's address, sends "json" and decodes
// the answer, in one phase.
func (q *gtQuerier) Query(ctx context.Context, t protocols.Target, tr *wire.Trace) (*protocols.Result, error) {
	return protocols.InfoPhase(ctx, t, tr, q.query)
}

func (q *gtQuerier) query(ctx context.Context, t protocols.Target, tr *wire.Trace) (*protocols.Result, error) {
	conn, err := wire.DialTCP(ctx, t.OnPort(q.queryPort), tr)
	if err != nil {
		return nil, err
	}
	defer conn.Close()
	if _, err := conn.Write([]byte("json\n")); err != nil {
		return nil, err
	}
	// One JSON value: the decoder stops at its end, whether or not the plugin
	// closes the connection after it.
	lr := &io.LimitedReader{R: conn, N: maxCVP + 1}
	dec := json.NewDecoder(lr)
	var raw json.RawMessage
	if err := dec.Decode(&raw); err != nil {
		switch {
		case lr.N <= 0:
			return nil, fmt.Errorf("%w: channel viewer JSON longer than %d bytes", wire.ErrTooLarge, maxCVP)
		case errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF):
			return nil, fmt.Errorf("%w: connection closed before the JSON ended", wire.ErrTruncated)
		case errors.Is(err, wire.ErrTimeout), errors.Is(err, wire.ErrNetwork), errors.Is(err, wire.ErrRefused):
			return nil, err
		}
		return nil, fmt.Errorf("%w: not channel viewer JSON: %v", wire.ErrMalformed, err)
	}
	return decodeCVP(raw, q.players)
}

// decodeCVP maps a channel viewer document onto a Result: the users of every
// channel are the players (a voice server has no bots).
func decodeCVP(b []byte, withList bool) (*protocols.Result, error) {
	var s cvpServer
	if err := json.Unmarshal(b, &s); err != nil {
		return nil, fmt.Errorf("%w: channel viewer JSON: %v", wire.ErrMalformed, err)
	}
	if s.Root == nil {
		return nil, fmt.Errorf("%w: channel viewer JSON without a root channel", wire.ErrMalformed)
	}
	res := &protocols.Result{Name: s.Name}
	var users []cvpUser
	channels := 0
	var walk func(c *cvpChannel, depth int) error
	walk = func(c *cvpChannel, depth int) error {
		if channels++; channels > maxChannels || depth > maxDepth {
			return fmt.Errorf("%w: more than %d channels or deeper than %d", wire.ErrTooLarge, maxChannels, maxDepth)
		}
		if users = append(users, c.Users...); len(users) > maxUsers {
			return fmt.Errorf("%w: more than %d users", wire.ErrTooLarge, maxUsers)
		}
		for i := range c.Channels {
			if err := walk(&c.Channels[i], depth+1); err != nil {
				return err
			}
		}
		return nil
	}
	if err := walk(s.Root, 0); err != nil {
		return nil, err
	}
	res.Players = protocols.Known(int64(len(users)))
	if s.Uptime != nil { // seconds since the server started
		res.Uptime = protocols.SpanSeconds(*s.Uptime)
	}
	if n := s.MaxUsers; n != nil && *n >= 0 && *n <= 1e9 && *n == float64(int64(*n)) {
		res.MaxPlayers = protocols.Known(int64(*n))
	}
	if withList {
		res.PlayerList = make([]protocols.Player, len(users))
		for i, u := range users {
			res.PlayerList[i].Name = u.Name
			if d := u.OnlineSecs; d != nil && *d >= 0 {
				res.PlayerList[i].Duration, res.PlayerList[i].DurationKnown = *d, true
			}
		}
	}
	kv := func(k, v string) { res.Info = append(res.Info, protocols.KV{Key: k, Value: v}) }
	num := func(k string, v *float64) {
		if v != nil {
			kv(k, strconv.FormatFloat(*v, 'f', -1, 64))
		}
	}
	kv("api", "gtmurmur")
	kv("channels", strconv.Itoa(channels))
	if s.ConnectURL != "" {
		kv("x_connecturl", s.ConnectURL)
	}
	num("x_uptime", s.Uptime)
	num("x_gtmurmur_connectport", s.ConnectPort)
	num("x_gtmurmur_max_users", s.MaxUsers)
	return res, nil
}
