package satisfactory

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"mime"
	"net/http"
	"strconv"
	"strings"

	"github.com/gameserver-exporter/gameserver_exporter/protocols"
	"github.com/gameserver-exporter/gameserver_exporter/protocols/wire"
)

const (
	maxToken    = 4096    // a token longer than this is no token
	maxAPICount = 1 << 20 // players and limits past this are nonsense
	maxAPIText  = 160     // how much of the server's error message an error quotes
)

// envelope is every API reply: data on success, errorCode (and maybe a message)
// on failure. The server may send an error with HTTP 200, so errorCode is checked
// whatever the status.
type envelope struct {
	Data         json.RawMessage `json:"data"`
	ErrorCode    string          `json:"errorCode"`
	ErrorMessage string          `json:"errorMessage"`
}

// loginData is PasswordlessLogin's data. JSON field names match case-insensitively,
// so both the docs' AuthenticationToken and the servers' authenticationToken read.
type loginData struct {
	AuthenticationToken string `json:"authenticationToken"`
}

// stateData is QueryServerState's data.
type stateData struct {
	ServerGameState *gameState `json:"serverGameState"`
}

type gameState struct {
	ActiveSessionName   string   `json:"activeSessionName"`
	NumConnectedPlayers *float64 `json:"numConnectedPlayers"`
	PlayerLimit         *float64 `json:"playerLimit"`
	TechTier            *float64 `json:"techTier"`
	ActiveSchematic     string   `json:"activeSchematic"`
	GamePhase           string   `json:"gamePhase"`
	IsGameRunning       *bool    `json:"isGameRunning"`
	IsGamePaused        *bool    `json:"isGamePaused"`
	TotalGameDuration   *float64 `json:"totalGameDuration"` // seconds
	AverageTickRate     *float64 `json:"averageTickRate"`   // ticks per second
	AutoLoadSessionName string   `json:"autoLoadSessionName"`
}

// decodeAPI turns one HTTP response into the function's data (into out) or an
// error naming the API's error code.
func decodeAPI(resp *wire.HTTPResponse, out any) error {
	var env envelope
	if resp.Status < 200 || resp.Status > 299 {
		if isJSON(resp) && json.Unmarshal(resp.Body, &env) == nil && env.ErrorCode != "" {
			return apiError(resp.Status, env)
		}
		return wire.StatusError(resp)
	}
	if resp.Status == http.StatusNoContent || len(bytes.TrimSpace(resp.Body)) == 0 {
		return fmt.Errorf("%w: HTTP %d without a body, want the function's data", wire.ErrMalformed, resp.Status)
	}
	if err := wire.DecodeJSON(resp, &env); err != nil {
		return err
	}
	if env.ErrorCode != "" {
		return apiError(resp.Status, env)
	}
	if len(env.Data) == 0 || string(env.Data) == "null" {
		return fmt.Errorf("%w: reply without data or errorCode", wire.ErrMalformed)
	}
	if err := json.Unmarshal(env.Data, out); err != nil {
		return fmt.Errorf("%w: JSON data: %v", wire.ErrMalformed, err)
	}
	return nil
}

func isJSON(resp *wire.HTTPResponse) bool {
	mt, _, _ := mime.ParseMediaType(resp.Header.Get("Content-Type"))
	return mt == "application/json" || mt == ""
}

// clip returns at most n bytes of a peer's text, valid UTF-8, quoted.
func clip(s string, n int) string {
	if len(s) > n {
		s = s[:n] + "..."
	}
	return strconv.Quote(strings.ToValidUTF8(s, "\uFFFD"))
}

// apiError names the API's error code; the codes a monitoring setup can fix get
// a sentence saying how.
func apiError(status int, env envelope) error {
	code := clip(env.ErrorCode, 64)
	msg := ""
	if env.ErrorMessage != "" {
		msg = ": " + clip(env.ErrorMessage, maxAPIText)
	}
	switch {
	case env.ErrorCode == "passwordless_login_not_possible":
		return fmt.Errorf("%w: API error %s%s: the server grants no token without a password (it has a client password): set token_file to an API token made with the server console's server.GenerateAPIToken", wire.ErrServer, code, msg)
	case status == http.StatusUnauthorized || status == http.StatusForbidden ||
		env.ErrorCode == "invalid_token" || env.ErrorCode == "insufficient_scope" || env.ErrorCode == "wrong_password":
		return fmt.Errorf("%w: HTTP %d, API error %s%s: authentication failed (check the module's token)", wire.ErrServer, status, code, msg)
	}
	return fmt.Errorf("%w: HTTP %d, API error %s%s", wire.ErrServer, status, code, msg)
}

// checkToken rejects what cannot go in an Authorization header: the server's
// tokens are base64 and hex separated by a dot.
func checkToken(t string) error {
	if len(t) > maxToken {
		return fmt.Errorf("token of %d bytes, at most %d", len(t), maxToken)
	}
	for i := 0; i < len(t); i++ {
		if t[i] <= ' ' || t[i] > '~' {
			return fmt.Errorf("token has a space or non-printable byte at offset %d", i)
		}
	}
	return nil
}

func (l *loginData) token() (protocols.Secret, error) {
	if l.AuthenticationToken == "" {
		return "", fmt.Errorf("%w: login reply without authenticationToken", wire.ErrMalformed)
	}
	if err := checkToken(l.AuthenticationToken); err != nil {
		return "", fmt.Errorf("%w: login reply: %v", wire.ErrMalformed, err)
	}
	return protocols.Secret(l.AuthenticationToken), nil
}

func apiCount(name string, v *float64) error {
	if v != nil && (*v < 0 || *v > maxAPICount || *v != math.Trunc(*v)) {
		return fmt.Errorf("%w: serverGameState %s %g is not a count", wire.ErrMalformed, name, *v)
	}
	return nil
}

func (st *stateData) check() error {
	gs := st.ServerGameState
	if gs == nil {
		return fmt.Errorf("%w: QueryServerState data without serverGameState", wire.ErrMalformed)
	}
	if gs.NumConnectedPlayers == nil {
		return fmt.Errorf("%w: serverGameState without numConnectedPlayers", wire.ErrMalformed)
	}
	if err := apiCount("numConnectedPlayers", gs.NumConnectedPlayers); err != nil {
		return err
	}
	return apiCount("playerLimit", gs.PlayerLimit)
}

// addTo adds a checked server state to the Lightweight Query's result: the
// players and the limit, and the API's own fields (session, tech tier, game phase,
// tick rate) in the info. The name and build stay the Lightweight Query's: the
// session name is not the server's name.
func (st *stateData) addTo(res *protocols.Result) {
	gs := st.ServerGameState
	res.Players = protocols.Known(int64(*gs.NumConnectedPlayers))
	if gs.PlayerLimit != nil {
		res.MaxPlayers = protocols.Known(int64(*gs.PlayerLimit))
	}
	kv := func(k, v string) { res.Info = append(res.Info, protocols.KV{Key: k, Value: v}) }
	num := func(k string, v *float64) {
		if v != nil {
			kv(k, strconv.FormatFloat(*v, 'f', -1, 64))
		}
	}
	flag := func(k string, v *bool) {
		if v != nil {
			kv(k, strconv.FormatBool(*v))
		}
	}
	kv("api", "https")
	kv("active_session_name", gs.ActiveSessionName)
	num("num_connected_players", gs.NumConnectedPlayers)
	num("player_limit", gs.PlayerLimit)
	num("tech_tier", gs.TechTier)
	kv("active_schematic", gs.ActiveSchematic)
	kv("game_phase", gs.GamePhase)
	flag("is_game_running", gs.IsGameRunning)
	flag("is_game_paused", gs.IsGamePaused)
	num("total_game_duration", gs.TotalGameDuration)
	num("average_tick_rate", gs.AverageTickRate)
	kv("auto_load_session_name", gs.AutoLoadSessionName)
}

// addState sets the state from the API when the Lightweight Query gave none. The
// state set is the Lightweight Query's: the HTTPS API answers only once a server
// is up and not loading, so a running game is "playing" and a server waiting for a
// session "idle".
func (st *stateData) addState(res *protocols.Result) {
	if gs := st.ServerGameState; gs.IsGameRunning != nil {
		res.State = stateName(1)
		if *gs.IsGameRunning {
			res.State = stateName(3)
		}
	}
}

// redactLogin is what the trace keeps of a login reply: the token replaced, or
// the reply withheld when it does not parse (it might still hold one).
var redactLogin = wire.RedactJSON("login reply (it may hold a token)", maskToken)

// maskToken replaces data.authenticationToken; keys match the envelope's fields
// case-insensitively, as the decoder does.
func maskToken(v any) {
	top, _ := v.(map[string]any)
	for dk, d := range top {
		data, ok := d.(map[string]any)
		if !ok || !strings.EqualFold(dk, "data") {
			continue
		}
		for k := range data {
			if strings.EqualFold(k, "authenticationToken") {
				data[k] = "<secret>"
			}
		}
	}
}
