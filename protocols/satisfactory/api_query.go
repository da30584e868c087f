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
	token protocols.Secret // API token; "" logs in without a password each probe
	roots *x509.CertPool   // nil accepts the server's self-signed certificate
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

// Query logs in without a password unless a token is configured (phase "login"),
// then asks for the server state (phase "info"). The login token is not kept
// between probes: it is short-lived, and a login is one more request on a
// connection the probe opens anyway.
func (q *apiQuerier) Query(ctx context.Context, t protocols.Target, tr *wire.Trace) (*protocols.Result, error) {
	addr := t.Addr
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
			return nil, err
		}
	}
	var st stateData
	p := tr.Begin("info")
	err := q.call(ctx, addr, tr, apiRequest{Function: "QueryServerState"}, token, nil, &st)
	if err == nil {
		err = st.check()
	}
	tr.End(p, err)
	if err != nil {
		return nil, err
	}
	return st.result(), nil
}
