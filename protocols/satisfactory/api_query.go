package satisfactory

import (
	"context"
	"crypto/x509"
	"encoding/json"
	"net/http"
	"net/netip"

	"github.com/gameserver-exporter/gameserver_exporter/protocols"
	"github.com/gameserver-exporter/gameserver_exporter/protocols/wire"
)

// apiQuerier speaks the HTTPS API: every call is a POST of {"function":...,
// "data":...} to /api/v1, answered by {"data":...} or {"errorCode":...}.
type apiQuerier struct {
	token protocols.Secret  // API token; "" logs in without a password each probe
	roots *x509.CertPool    // nil accepts the server's self-signed certificate
	lq    protocols.Querier // the Lightweight Query, on the same port over UDP
}

// String and GoString keep the token out of any print of the querier: fmt cannot
// call Secret's String on an unexported field.
func (q *apiQuerier) String() string   { return "satisfactory HTTPS API querier" }
func (q *apiQuerier) GoString() string { return "satisfactory HTTPS API querier" }

const (
	apiPath = "/api/v1"
	// apiMaxBody caps each reply: the server state is well under 1 KiB.
	apiMaxBody = 64 << 10
)

type apiRequest struct {
	Function string `json:"function"`
	Data     any    `json:"data,omitempty"`
}

// call runs one API function and decodes its data into out.
func (q *apiQuerier) call(ctx context.Context, addr netip.AddrPort, tr *wire.Trace, req apiRequest, token protocols.Secret, redact func([]byte) []byte, out any) error {
	body, err := json.Marshal(req)
	if err != nil {
		return err
	}
	hdr := http.Header{"Content-Type": {"application/json"}, "Accept": {"application/json"}}
	if token != "" {
		hdr.Set("Authorization", "Bearer "+token.Reveal())
	}
	resp, err := wire.DoHTTP(ctx, addr, wire.HTTPRequest{
		Method:    http.MethodPost,
		Path:      apiPath,
		Header:    hdr,
		Body:      body,
		TLS:       true,
		RootCAs:   q.roots,
		MaxBody:   apiMaxBody,
		TraceBody: redact,
	}, tr)
	if err != nil {
		return err
	}
	return decodeAPI(resp, out)
}

// Query polls the Lightweight Query first (phase "info": name, build, state,
// sub-states), within half the time so a firewalled UDP port leaves the API its
// turn, then logs in without a password unless a token is configured (phase
// "login") and asks the API for the server state (phase "players": players, limit,
// session, tech tier). The login token is not kept between probes: it is
// short-lived, and a login is one more request on a connection the probe opens
// anyway.
//
// Either half failing leaves a phase error and the other half's fields; with both
// failed the API's error is the probe's (it says what the module's token lacks).
func (q *apiQuerier) Query(ctx context.Context, t protocols.Target, tr *wire.Trace) (*protocols.Result, error) {
	lctx, cancel := protocols.Share(ctx, 2)
	defer cancel()
	res, lqErr := q.lq.Query(lctx, t, tr)
	st, phase, err := q.state(ctx, t.Addr, tr)
	switch {
	case err != nil && lqErr != nil:
		return nil, err
	case err != nil:
		res.PhaseErrors = append(res.PhaseErrors, protocols.PhaseError{Phase: phase, Err: err})
		return res, nil
	case lqErr != nil:
		// The API alone: no name nor build, its state in the Lightweight Query's set.
		res = &protocols.Result{States: states, PhaseErrors: []protocols.PhaseError{{Phase: "info", Err: lqErr}}}
		st.addState(res)
	}
	st.addTo(res)
	return res, nil
}

// state runs the API's half of the query; phase names the phase that failed.
// Not a protocols.Phase: the Lightweight Query decides later if a failure is the probe's.
func (q *apiQuerier) state(ctx context.Context, addr netip.AddrPort, tr *wire.Trace) (*stateData, string, error) {
	token := q.token
	if token == "" {
		var login loginData
		p := tr.Begin("login")
		err := q.call(ctx, addr, tr, apiRequest{
			Function: "PasswordlessLogin",
			Data:     map[string]string{"MinimumPrivilegeLevel": "Client"},
		}, "", redactLogin, &login)
		if err == nil {
			token, err = login.token()
		}
		tr.End(p, err)
		if err != nil {
			return nil, "login", err
		}
	}
	var st stateData
	p := tr.Begin("players")
	err := q.call(ctx, addr, tr, apiRequest{Function: "QueryServerState"}, token, nil, &st)
	if err == nil {
		err = st.check()
	}
	tr.End(p, err)
	if err != nil {
		return nil, "players", err
	}
	return &st, "", nil
}
