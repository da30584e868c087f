package eos

import (
	"context"
	"crypto/rand"
	"fmt"
	"net/netip"
	"net/url"
	"time"

	"github.com/gameserver-exporter/gameserver_exporter/protocols/wire"
)

// The device-id sign-in (auth deviceid), for deployments whose client may not
// search sessions itself (Squad, Renown): the client creates an anonymous
// device-id account (POST /auth/v1/accounts/deviceid, answering an access
// token), then trades that token for a user token of the deployment (the OAuth
// token endpoint, grant external_auth with type deviceid_access_token). The
// second token is the bearer of the session search, and is kept like a client
// token. Both requests carry the client credentials as basic auth.

// deviceModel is the device the account is created for; Epic takes any name.
const deviceModel = "PC"

// fetchDeviceToken runs both steps in the challenge phase.
func (q *querier) fetchDeviceToken(ctx context.Context, addr netip.AddrPort, tr *wire.Trace) (string, time.Duration, error) {
	body, err := q.api.JSON(ctx, addr, tr, "EOS device-id sign-in", "/auth/v1/accounts/deviceid",
		q.form(url.Values{"deviceModel": {deviceModel}}, ""), deviceIDError)
	if err != nil {
		return "", 0, err
	}
	device, _, err := decodeToken(body)
	if err != nil {
		return "", 0, fmt.Errorf("EOS device-id sign-in: %w", err)
	}
	form := url.Values{
		"grant_type":          {"external_auth"},
		"external_auth_type":  {"deviceid_access_token"},
		"external_auth_token": {device},
		// Epic wants a nonce (it would go in an ID token we do not ask for).
		"nonce":         {rand.Text()},
		"deployment_id": {q.deployment},
		"display_name":  {"User"},
	}
	body, err = q.api.JSON(ctx, addr, tr, "EOS sign-in", "/auth/v1/oauth/token", q.form(form, device), authError)
	if err != nil {
		return "", 0, err
	}
	return decodeToken(body)
}

// deviceIDError names a refused device-id account: a 4xx is the client
// credentials (or a client not allowed to create device-id accounts).
var deviceIDError = refusal("EOS device-id sign-in", "EOS device-id sign-in failed",
	"check client_id and client_secret, and that the client may create device-id accounts (auth: deviceid)")
