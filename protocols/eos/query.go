package eos

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/netip"
	"net/url"
	"time"

	"github.com/gameserver-exporter/gameserver_exporter/protocols"
	"github.com/gameserver-exporter/gameserver_exporter/protocols/wire"
)

type querier struct {
	api                  protocols.API // api_base (checked), the system's roots and ca_file
	prefix               string
	clientID, deployment string
	auth                 string // authClient or authDeviceID
	secret               protocols.Secret
	addrAttr             string
	attrs                attrNames
	rules                bool

	// One token per module, shared by its probes until shortly before it
	// expires.
	token *protocols.SignIn
}

// Response body caps: a token answer is small; a filter answer holds at most
// maxResults sessions of a few KiB each.
const (
	maxTokenBody  = 64 << 10
	maxFilterBody = 512 << 10
	maxResults    = 100
)

// Query finds the target's session: a token (kept from an earlier probe, or
// fetched in the challenge phase), then the session search in the info phase.
func (q *querier) Query(ctx context.Context, t protocols.Target, tr *wire.Trace) (*protocols.Result, error) {
	addr := t.Addr
	target := netip.AddrPortFrom(addr.Addr().Unmap(), addr.Port())
	token, fresh, err := q.accessToken(ctx, addr, "", tr)
	if err != nil {
		return nil, err
	}
	p := tr.Begin("info")
	resp, err := q.filter(ctx, addr, target, token, tr)
	if err == nil && resp.Status == http.StatusUnauthorized && !fresh {
		// The kept token was revoked or expired early: sign in once more.
		tr.Log("EOS refused the kept token (HTTP 401): signing in again")
		if token, _, err = q.accessToken(ctx, addr, token, tr); err == nil {
			resp, err = q.filter(ctx, addr, target, token, tr)
		}
	}
	if err == nil {
		err = filterStatus(resp)
	}
	var pk pick
	if err == nil {
		pk, err = decodeSessions(resp.Body, target)
	}
	if err == nil && pk.session == nil {
		err = notFound(target, pk.sessions)
	}
	tr.End(p, err)
	if err != nil {
		return nil, err
	}
	if pk.matches > 1 {
		tr.Logf("%d sessions advertise %s: the first is used", pk.matches, target)
	}
	return pk.session.result(q.attrs, q.rules), nil
}

func notFound(target netip.AddrPort, atIP int) error {
	var more string
	switch {
	case atIP >= maxResults:
		more = fmt.Sprintf(" (the search returned its maximum of %d sessions at that IP: it may be among those left out)", maxResults)
	case atIP > 0:
		more = fmt.Sprintf(" (%d at that IP, on other ports)", atIP)
	}
	return fmt.Errorf("%w: no EOS session advertises %s: the server is down or unlisted%s", wire.ErrServer, target, more)
}

// accessToken returns the kept token, or fetches one (fresh). stale is a token
// the API just refused: it is not returned again.
func (q *querier) accessToken(ctx context.Context, addr netip.AddrPort, stale string, tr *wire.Trace) (token string, fresh bool, err error) {
	return q.token.Token(ctx, stale, func() (string, time.Time, error) {
		p := tr.Begin("challenge")
		token, life, err := q.fetchToken(ctx, addr, tr)
		tr.End(p, err)
		// Replaced a tenth of its life (at least 30 s) before it expires; a
		// token too short-lived for that is not kept.
		return token, time.Now().Add(life - max(life/10, 30*time.Second)), err
	})
}

// fetchToken signs in with the client credentials, or by device id. The trace
// keeps the exchange without its answer's body: that is a bearer token debug
// output would show. (The credentials go in a header, which the trace does not
// record.)
func (q *querier) fetchToken(ctx context.Context, addr netip.AddrPort, tr *wire.Trace) (string, time.Duration, error) {
	if q.auth == authDeviceID {
		return q.fetchDeviceToken(ctx, addr, tr)
	}
	form := url.Values{"grant_type": {"client_credentials"}, "deployment_id": {q.deployment}}
	body, err := q.api.JSON(ctx, addr, tr, "EOS sign-in", "/auth/v1/oauth/token", q.form(form, ""), authError)
	if err != nil {
		return "", 0, err
	}
	return decodeToken(body)
}

// form is a sign-in request: the form posted, the client credentials as basic
// auth. hide, when set, is a token the form carries: the trace records the
// request with it masked.
func (q *querier) form(form url.Values, hide string) wire.HTTPRequest {
	req := wire.HTTPRequest{
		Method: http.MethodPost,
		Header: http.Header{
			"Authorization": {protocols.BasicAuth(q.clientID, q.secret).Reveal()},
			"Content-Type":  {"application/x-www-form-urlencoded"},
		},
		Body:      []byte(form.Encode()),
		MaxBody:   maxTokenBody,
		TraceBody: wire.Withhold("the sign-in answer holds the token"),
	}
	if hide != "" {
		req.TraceSent = func(body []byte) []byte {
			return bytes.ReplaceAll(body, []byte(url.QueryEscape(hide)), []byte("<secret>"))
		}
	}
	return req
}

// authError names a refused sign-in. EOS answers bad credentials with 400 or
// 401 and an error code (invalid_client, ...).
var authError = refusal("EOS sign-in", "EOS authentication failed", "check client_id, client_secret and deployment_id")

// refusal names the refusals of a sign-in step: a 4xx (but 429) is the
// credentials, failed and check say which; another status is the service's.
func refusal(step, failed, check string) func(*wire.HTTPResponse) error {
	return func(resp *wire.HTTPResponse) error {
		code := errorCode(resp.Body)
		if code != "" {
			code = ", " + code
		}
		if resp.Status >= 400 && resp.Status < 500 && resp.Status != http.StatusTooManyRequests {
			return fmt.Errorf("%w: %s (HTTP %d%s): %s", wire.ErrServer, failed, resp.Status, code, check)
		}
		return fmt.Errorf("%w: %s: HTTP %d %s%s", wire.ErrServer, step, resp.Status, http.StatusText(resp.Status), code)
	}
}

// filter searches the deployment's sessions for those whose address attribute
// is the target's IP.
func (q *querier) filter(ctx context.Context, addr, target netip.AddrPort, token string, tr *wire.Trace) (*wire.HTTPResponse, error) {
	body, _ := json.Marshal(map[string]any{
		"criteria": []map[string]string{{
			"key": "attributes." + q.addrAttr, "op": "EQUAL", "value": target.Addr().String(),
		}},
		"maxResults": maxResults,
	})
	resp, err := wire.DoHTTP(ctx, addr, wire.HTTPRequest{
		Method: http.MethodPost,
		URL:    q.api.URL(addr, q.prefix+"/matchmaking/v1/"+q.deployment+"/filter"),
		Header: http.Header{
			"Authorization": {"Bearer " + token},
			"Content-Type":  {"application/json"},
			"Accept":        {"application/json"},
		},
		Body:    body,
		RootCAs: q.api.RootCAs,
		MaxBody: maxFilterBody,
	}, tr)
	if err != nil {
		return nil, fmt.Errorf("EOS session search: %w", err)
	}
	return resp, nil
}

// filterStatus turns a failed search into an error. 403 with
// policy_missing_action is a client whose rights were withdrawn (ARK:
// Survival Ascended's public client since v85 of the game).
func filterStatus(resp *wire.HTTPResponse) error {
	if resp.Status >= 200 && resp.Status <= 299 {
		if _, err := wire.JSONBody(resp); err != nil {
			return fmt.Errorf("EOS session search: %w", err)
		}
		return nil
	}
	code := errorCode(resp.Body)
	switch {
	case resp.Status == http.StatusUnauthorized:
		return fmt.Errorf("%w: EOS authentication failed: the session search refused a fresh token (HTTP 401)", wire.ErrServer)
	case resp.Status == http.StatusForbidden && code == "errors.com.epicgames.common.policy_missing_action":
		return fmt.Errorf("%w: EOS session search: the client may not search sessions (HTTP 403, %s): the game withdrew these credentials' rights, or its sessions are searched with a user token (auth: deviceid)", wire.ErrServer, code)
	case code != "":
		return fmt.Errorf("%w: EOS session search: HTTP %d (%s)", wire.ErrServer, resp.Status, code)
	}
	return fmt.Errorf("%w: EOS session search: HTTP %d %s", wire.ErrServer, resp.Status, http.StatusText(resp.Status))
}
